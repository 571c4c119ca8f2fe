/**
 * host_cli: runs the action's script in the chosen shell, only on an actor started with
 * --allow-host-cli. bash and sh scripts use the host_cli syntax (src/api/contracts/action-form-host-cli.ts):
 * each command runs in one persistent shell (so `cd` and variables carry over), bounded by its
 * max_timeout_seconds (at most 300 s) and by the work's own timeout, its output kept up to 64 KiB.
 * The condition lines of a command are read in order and the first that matches decides:
 * blocked_* ends the action blocked, error_* errored, incompatible_* incompatible, success_* lets the
 * next command run. A command with success conditions none of which matched is blocked (the expected
 * success was not seen); a command without matching conditions passes. Commands marked `cleanup` and
 * the cleanup script run afterwards, always. python scripts run as one program: exit 0 passes,
 * another exit code is blocked. cmd and powershell end incompatible (not installed, or not supported yet).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHostCli, type HostCliCommand } from '../../src/api/contracts/action-form-host-cli';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { Incompatible, type Outcome, type PerformOptions } from '../perform';
import { deliverFiles, removeDelivered, type Delivered } from './host-cli-files';

const MAX_OUTPUT_BYTES = 64 * 1024;
const EXCERPT_CHARS = 2000;
const DEFAULT_TIMEOUT_S = 60;
const MAX_TIMEOUT_S = 300;

const SHELL_PROGRAMS: Record<string, string[]> = {
  bash: ['bash'],
  sh: ['sh'],
  python: ['python3', 'python'],
  powershell: ['pwsh', 'powershell'],
  cmd: ['cmd.exe', 'cmd'],
};

function installed(program: string): boolean {
  const r = spawnSync(process.platform === 'win32' ? 'where' : 'which', [program], { stdio: 'ignore', timeout: 5000 });
  return r.status === 0;
}

/** The program of a shell on this actor, or null when none of its names is installed. */
export function shellProgram(shell: string): string | null {
  return (SHELL_PROGRAMS[shell] ?? []).find(installed) ?? null;
}

export interface CommandRun {
  command: string;
  exit_code: number | null;
  timed_out: boolean;
  stdout: string;
  stderr: string;
  matched: string | null;
  verdict: 'passed' | 'blocked' | 'errored' | 'incompatible';
}

type Verdict = CommandRun['verdict'];

/** Applies a command's conditions to its output and exit code (first match decides). */
export function judge(cmd: Pick<HostCliCommand, 'conditions'>, output: string, exitCode: number | null): { verdict: Verdict; matched: string | null } {
  const test = (re: string | null) => {
    try {
      return new RegExp(re ?? '', 'm').test(output);
    } catch {
      return false;
    }
  };
  const zero = exitCode === 0;
  for (const c of cmd.conditions) {
    const hit: Record<string, boolean> = {
      blocked_match: c.type === 'blocked_match' && test(c.value),
      success_match: c.type === 'success_match' && test(c.value),
      error_match: c.type === 'error_match' && test(c.value),
      incompatible_match: c.type === 'incompatible_match' && test(c.value),
      blocked_nonzero: c.type === 'blocked_nonzero' && !zero,
      success_zero: c.type === 'success_zero' && zero,
      error_nonzero: c.type === 'error_nonzero' && !zero,
      incompatible_nonzero: c.type === 'incompatible_nonzero' && !zero,
    };
    if (!hit[c.type]) continue;
    const label = c.value ? `${c.type} ${c.value}` : c.type;
    if (c.type.startsWith('blocked')) return { verdict: 'blocked', matched: label };
    if (c.type.startsWith('error')) return { verdict: 'errored', matched: label };
    if (c.type.startsWith('incompatible')) return { verdict: 'incompatible', matched: label };
    return { verdict: 'passed', matched: label };
  }
  const wantsSuccess = cmd.conditions.some((c) => c.type === 'success_match' || c.type === 'success_zero');
  return { verdict: wantsSuccess ? 'blocked' : 'passed', matched: null };
}

const excerpt = (b: Buffer) => {
  const s = b.toString('utf8');
  return s.length > EXCERPT_CHARS ? `${s.slice(0, EXCERPT_CHARS)}…` : s;
};

/** One shell process that runs commands one after another and reports each exit code. */
class Shell {
  private child: ChildProcessWithoutNullStreams;
  private out = Buffer.alloc(0);
  private err = Buffer.alloc(0);
  private tail = '';
  private waiter: (() => void) | null = null;
  private exited = false;
  /** The shell's own exit code once it ended (a command such as `exit 3` ends it). */
  private exitCode: number | null = null;
  private readonly marker = `__vigil_${crypto.randomBytes(8).toString('hex')}__`;

  constructor(program: string, cwd: string) {
    this.child = spawn(program, [], { cwd, detached: true, env: { ...process.env, PS1: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => {});
    this.child.on('error', () => this.finish());
    this.child.on('exit', (code) => {
      this.exitCode = code;
      this.finish();
    });
    this.child.stdout.on('data', (c: Buffer) => {
      this.tail = (this.tail + c.toString('latin1')).slice(-4096);
      if (this.out.length < MAX_OUTPUT_BYTES + 200) this.out = Buffer.concat([this.out, c]);
      this.waiter?.();
    });
    this.child.stderr.on('data', (c: Buffer) => {
      if (this.err.length < MAX_OUTPUT_BYTES) this.err = Buffer.concat([this.err, c]).subarray(0, MAX_OUTPUT_BYTES);
    });
  }

  private finish() {
    this.exited = true;
    this.waiter?.();
  }

  get alive(): boolean {
    return !this.exited;
  }

  async run(command: string, timeoutMs: number, signal: AbortSignal): Promise<{ stdout: Buffer; stderr: Buffer; exit_code: number | null; timed_out: boolean }> {
    this.out = Buffer.alloc(0);
    this.err = Buffer.alloc(0);
    this.tail = '';
    const re = new RegExp(`\\n${this.marker} (\\d+)\\n`);
    this.child.stdin.write(`${command}\nprintf '\\n%s %s\\n' '${this.marker}' "$?"\n`);
    const deadline = Date.now() + timeoutMs;
    let m: RegExpExecArray | null = null;
    while (!(m = re.exec(this.tail)) && this.alive && Date.now() < deadline && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.waiter = null;
          resolve();
        }, Math.max(1, Math.min(deadline - Date.now(), 500)));
        this.waiter = () => {
          clearTimeout(t);
          this.waiter = null;
          resolve();
        };
      });
    }
    // Let stderr written just before the marker arrive.
    await new Promise((r) => setImmediate(r));
    const cut = this.out.indexOf(`\n${this.marker}`);
    const stdout = (cut >= 0 ? this.out.subarray(0, cut) : this.out).subarray(0, MAX_OUTPUT_BYTES);
    if (m) return { stdout, stderr: this.err, exit_code: Number(m[1]), timed_out: false };
    if (!this.alive) return { stdout, stderr: this.err, exit_code: this.exitCode, timed_out: false };
    if (!signal.aborted) this.kill();
    return { stdout, stderr: this.err, exit_code: null, timed_out: true };
  }

  kill() {
    if (this.exited || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
    this.exited = true;
  }

  async close() {
    if (this.exited) return;
    this.child.stdin.end('exit\n');
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.kill();
        resolve();
      }, 2000);
      this.child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

const timeoutOf = (c: HostCliCommand) => Math.min(c.max_timeout_seconds ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S) * 1000;

async function runCommand(shell: Shell, c: HostCliCommand, signal: AbortSignal): Promise<CommandRun> {
  const r = await shell.run(c.command, timeoutOf(c), signal);
  if (signal.aborted) throw new Error('aborted');
  const output = `${r.stdout.toString('utf8')}\n${r.stderr.toString('utf8')}`;
  const base = { command: c.command, exit_code: r.exit_code, timed_out: r.timed_out, stdout: excerpt(r.stdout), stderr: excerpt(r.stderr) };
  if (r.exit_code === null) return { ...base, matched: null, verdict: 'errored' };
  return { ...base, ...judge(c, output, r.exit_code) };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Runs the script and the cleanup; the outcome comes from the first deciding command. */
export async function hostCliSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  if (!opts.allowHostCli) throw new Incompatible('host_cli runs only on an actor started with --allow-host-cli.');
  const d = w.details;
  const shellName = str(d.shell) || 'sh';
  const program = shellProgram(shellName);
  if (!program) throw new Incompatible(`The ${shellName} shell is not installed on this actor.`);
  if (shellName === 'cmd' || shellName === 'powershell') throw new Incompatible(`This actor version runs bash, sh and python scripts; ${shellName} scripts are not supported yet.`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-host-cli-'));
  const delivered: Delivered[] = [];
  try {
    const early = await deliverFiles(w, signal, opts, delivered);
    if (early) return early;
    const outcome = shellName === 'python' ? await runPython(program, dir, str(d.raw_text), str(d.cleanup_raw_text), w.timeout_ms, signal) : await runScript(w, program, dir, signal);
    return delivered.length ? { ...outcome, evidence: { ...outcome.evidence, files: delivered } } : outcome;
  } finally {
    removeDelivered(w, delivered);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A bash/sh script in the host_cli syntax, then its cleanup. */
async function runScript(w: WorkPayload, program: string, dir: string, signal: AbortSignal): Promise<Outcome> {
  const d = w.details;
  const shellName = str(d.shell);
  const main = parseHostCli(str(d.raw_text));
  const cleanup = parseHostCli(str(d.cleanup_raw_text));
  const firstError = main.diagnostics[0] ?? cleanup.diagnostics[0];
  if (firstError) return { outcome: 'errored', blocked: null, message: `The script has an error on line ${firstError.line}: ${firstError.message}`, evidence: {} };
  const steps = main.commands.filter((c) => !c.conditions.some((x) => x.type === 'cleanup'));
  const cleanups = [...main.commands.filter((c) => c.conditions.some((x) => x.type === 'cleanup')), ...cleanup.commands];
  const runs: CommandRun[] = [];
  const cleanupRuns: CommandRun[] = [];
  let decided: CommandRun | null = null;
  const shell = new Shell(program, dir);
  let cleanupShell = shell;
  try {
    for (const c of steps) {
      const r = await runCommand(shell, c, signal);
      runs.push(r);
      if (r.verdict !== 'passed') {
        decided = r;
        break;
      }
      if (!shell.alive) break;
    }
    // The cleanup always runs: in the same shell, or a new one (separate cleanup shell, or the first ended).
    if (d.separate_cleanup_shell === true) await shell.close();
    if (cleanups.length && !shell.alive) cleanupShell = new Shell(program, dir);
    for (const c of cleanups) {
      if (signal.aborted) break;
      const failed: CommandRun = { command: c.command, exit_code: null, timed_out: false, stdout: '', stderr: '', matched: null, verdict: 'errored' };
      cleanupRuns.push(await runCommand(cleanupShell, c, signal).catch(() => failed));
    }
  } finally {
    // Cancelled work ends its processes at once; otherwise the shells exit.
    for (const s of new Set([shell, cleanupShell])) await (signal.aborted ? s.kill() : s.close());
  }
  const evidence = { shell: shellName, program, commands: runs, cleanup: cleanupRuns };
  if (!decided) return { outcome: 'ran', blocked: false, message: null, evidence };
  const n = runs.length;
  const why = decided.exit_code === null ? (decided.timed_out ? 'timed out' : 'the shell ended') : decided.matched ? `matched ${decided.matched}` : 'no success condition matched';
  const message = `Command ${n} (${decided.command.length > 200 ? `${decided.command.slice(0, 200)}…` : decided.command}): ${why}`;
  if (decided.verdict === 'blocked') return { outcome: 'ran', blocked: true, message, evidence };
  if (decided.verdict === 'incompatible') return { outcome: 'incompatible', blocked: null, message, evidence };
  return { outcome: 'errored', blocked: null, message, evidence };
}

/** A python script runs as one program with the work's timeout (at most 300 s), then the cleanup script. */
async function runPython(program: string, dir: string, script: string, cleanup: string, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  const limit = Math.min(timeoutMs, MAX_TIMEOUT_S * 1000);
  const main = await runProgram(program, dir, 'main.py', script, limit, signal);
  const after = cleanup.trim() ? await runProgram(program, dir, 'cleanup.py', cleanup, limit, signal) : null;
  const evidence = { shell: 'python', program, commands: [main], cleanup: after ? [after] : [] };
  if (main.exit_code === null) return { outcome: 'errored', blocked: null, message: main.timed_out ? 'The python script timed out.' : 'The python script did not run.', evidence };
  if (main.exit_code !== 0) return { outcome: 'ran', blocked: true, message: `The python script ended with exit code ${main.exit_code}`, evidence };
  return { outcome: 'ran', blocked: false, message: null, evidence };
}

function runProgram(program: string, dir: string, file: string, text: string, timeoutMs: number, signal: AbortSignal): Promise<CommandRun> {
  fs.writeFileSync(path.join(dir, file), text);
  return new Promise((resolve) => {
    const child = spawn(program, [file], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = Buffer.alloc(0);
    let err = Buffer.alloc(0);
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already ended */
      }
    };
    const t = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    signal.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      if (out.length < MAX_OUTPUT_BYTES) out = Buffer.concat([out, c]).subarray(0, MAX_OUTPUT_BYTES);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < MAX_OUTPUT_BYTES) err = Buffer.concat([err, c]).subarray(0, MAX_OUTPUT_BYTES);
    });
    const done = (code: number | null) => {
      clearTimeout(t);
      signal.removeEventListener('abort', kill);
      resolve({ command: file, exit_code: timedOut ? null : code, timed_out: timedOut, stdout: excerpt(out), stderr: excerpt(err), matched: null, verdict: code === 0 ? 'passed' : 'blocked' });
    };
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
}
