/** System programs the actor uses (bzip2, 7z, rar, OpenSSH): found on PATH or the usual sbin folders, run bounded in time and bytes. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const EXTRA_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/bin', '/bin'];

/** The absolute path of the first of `names` installed here, or null. */
export function findTool(...names: string[]): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const name of names) {
    for (const dir of dirs) {
      const p = path.join(dir, name);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        if (fs.statSync(p).isFile()) return p;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

export interface ToolRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a program with `input` on stdin; killed after `timeoutMs` or when stdout passes `maxBytes`. */
export function runTool(cmd: string, args: string[], opts: { input?: Buffer; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; maxBytes: number; signal?: AbortSignal }): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'], signal: opts.signal });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > opts.maxBytes) return void child.kill('SIGKILL');
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 4096) err += c.toString('utf8');
    });
    child.stdin.on('error', () => {});
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (size > opts.maxBytes) return reject(new Error(`${path.basename(cmd)} produced more than ${opts.maxBytes} bytes`));
      resolve({ code, stdout: Buffer.concat(out), stderr: err.trim() });
    });
    child.stdin.end(opts.input ?? Buffer.alloc(0));
  });
}
