/** Runs `npm run lab` as a child process (for the lab's tests): its exit code, output and wall time. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './lab';

export interface LabCliTarget {
  prefix: string;
  subnet: string;
  runDir: string;
  director: string;
  email: string;
  password: string;
}

export function runLabCli(t: LabCliTarget, args: string[] = []): Promise<{ code: number; output: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server/lab/cli.ts'), '--prefix', t.prefix, '--subnet', t.subnet, '--director', t.director, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, VIGIL_EMAIL: t.email, VIGIL_PASSWORD: t.password, VIGIL_LAB_RUN_DIR: t.runDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, output, ms: Date.now() - t0 }));
  });
}
