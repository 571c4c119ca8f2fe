/**
 * host_cli: runs the action's script in the chosen shell, only on an actor started with
 * --allow-host-cli. bash and sh scripts use the host_cli syntax (src/api/contracts/action-form-host-cli.ts)
 * and run in one interactive shell session (host-cli-shell.ts: `cd` and variables carry over). Each
 * command is written to the shell; the actor waits until the command's output matches its
 * prompt_regex ('auto': the shell's own prompt, which the actor sets to a unique marker) or its
 * max_timeout_seconds (default 60, at most 300) pass, then sleeps sleep_seconds (at most 60) so late
 * output is seen too, then reads the condition lines against the output (stdout and stderr) in order;
 * the first that matches decides: blocked_* ends the action blocked, error_* errored, incompatible_*
 * incompatible, success_* lets the next command run. A command with success conditions none of which
 * matched is blocked; a command without matching conditions passes. The exit code is the one the
 * shell's prompt shows (none while a program the command started holds the prompt, so *_zero and
 * *_nonzero do not match then). A timed-out command is interrupted; its output so far still meets the
 * match conditions, and when none decides it ends errored ('timed out'). check_logs false keeps the
 * command's output out of the evidence (the conditions still read it). Commands marked `cleanup` and
 * the cleanup script run afterwards, always. python scripts run as one program: exit 0 passes, another
 * exit code is blocked. cmd ends incompatible off Windows, powershell where pwsh is not installed
 * (and, for now, where it is).
 * With a run-as user profile the script runs as that OS user (run-as.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHostCli, type HostCliCommand } from '../../src/api/contracts/action-form-host-cli';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { sleep } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions } from './contract';
import { deliverFiles, removeDelivered, type Delivered } from './host-cli-files';
import { MAX_OUTPUT_CHARS, PromptShell, type ShellLaunch } from './host-cli-shell';
import { resolveRunAs, type RunAs } from './run-as';

const EXCERPT_CHARS = 2000;
const DEFAULT_TIMEOUT_S = 60;
const MAX_TIMEOUT_S = 300;
/** sleep_seconds is capped so a job cannot hold an actor. */
export const MAX_SLEEP_S = 60;

const SHELL_PROGRAMS: Record<string, string[]> = {
  bash: ['bash'],
  sh: ['sh'],
  python: ['python3', 'python'],
  powershell: ['pwsh'],
};

function installed(program: string): boolean {
  const r = spawnSync('which', [program], { stdio: 'ignore', timeout: 5000 });
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
  /** stdout and stderr as they came (an excerpt), or '' when check_logs is false. */
  output: string;
  /** Whether the output is kept (check_logs). */
  logged: boolean;
  matched: string | null;
  verdict: 'passed' | 'blocked' | 'errored' | 'incompatible';
}

type Verdict = CommandRun['verdict'];

/** Applies a command's conditions to its output and exit code (first match decides; a null exit code meets no *_zero/*_nonzero). */
export function judge(cmd: Pick<HostCliCommand, 'conditions'>, output: string, exitCode: number | null): { verdict: Verdict; matched: string | null } {
  const test = (re: string | null) => {
    try {
      return new RegExp(re ?? '', 'm').test(output);
    } catch {
      return false;
    }
  };
  const zero = exitCode === 0;
  const nonzero = exitCode !== null && exitCode !== 0;
  for (const c of cmd.conditions) {
    const hit: Record<string, boolean> = {
      blocked_match: c.type === 'blocked_match' && test(c.value),
      success_match: c.type === 'success_match' && test(c.value),
      error_match: c.type === 'error_match' && test(c.value),
      incompatible_match: c.type === 'incompatible_match' && test(c.value),
      blocked_nonzero: c.type === 'blocked_nonzero' && nonzero,
      success_zero: c.type === 'success_zero' && zero,
      error_nonzero: c.type === 'error_nonzero' && nonzero,
      incompatible_nonzero: c.type === 'incompatible_nonzero' && nonzero,
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

const excerpt = (s: string) => (s.length > EXCERPT_CHARS ? `${s.slice(0, EXCERPT_CHARS)}…` : s);

const timeoutOf = (c: HostCliCommand) => Math.min(c.max_timeout_seconds ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
const sleepOf = (c: HostCliCommand) => Math.min(Math.max(c.sleep_seconds, 0), MAX_SLEEP_S);

/** The regular expression that ends a command's wait: the shell's prompt for 'auto'. */
function promptOf(shell: PromptShell, c: HostCliCommand): RegExp {
  if (c.prompt_regex === 'auto' || !c.prompt_regex) return shell.autoPrompt;
  try {
    return new RegExp(c.prompt_regex, 'm');
  } catch {
    return shell.autoPrompt;
  }
}

async function runCommand(shell: PromptShell, c: HostCliCommand, signal: AbortSignal): Promise<CommandRun> {
  shell.send(c.command);
  const limit = timeoutOf(c);
  const prompted = await shell.waitFor(promptOf(shell, c), Date.now() + limit * 1000, signal);
  if (signal.aborted) throw new Error('aborted');
  const ended = !prompted && !shell.alive;
  const timedOut = !prompted && !ended;
  if (timedOut) await shell.interrupt(signal);
  else if (prompted && sleepOf(c)) await sleep(sleepOf(c) * 1000, signal);
  if (signal.aborted) throw new Error('aborted');
  const output = shell.output();
  const exitCode = ended ? shell.exitCode : shell.lastExitCode();
  const base = { command: c.command, exit_code: exitCode, timed_out: timedOut, output: c.check_logs ? excerpt(output) : '', logged: c.check_logs };
  const judged = judge(c, output, exitCode);
  // A timed-out command or an ended shell decides only through a condition that matched.
  if ((timedOut || (ended && exitCode === null)) && !judged.matched) return { ...base, matched: null, verdict: 'errored' };
  return { ...base, ...judged };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The program that runs a shell's scripts on this actor; throws Incompatible with the reason when there is none. */
function programFor(shellName: string): string {
  if (shellName === 'cmd') throw new Incompatible(process.platform === 'win32' ? 'This actor version does not run cmd scripts.' : `cmd exists only on Windows; this actor runs ${osName()}.`);
  const program = shellProgram(shellName);
  if (!program) throw new Incompatible(shellName === 'powershell' ? 'pwsh is not installed on this actor.' : `The ${shellName} shell is not installed on this actor.`);
  // pwsh reads piped commands statement by statement and echoes them with its prompt: not run as the host_cli session yet.
  if (shellName === 'powershell') throw new Incompatible('pwsh is installed, but this actor version does not run powershell scripts yet.');
  return program;
}

const osName = () => ({ linux: 'Linux', darwin: 'macOS', freebsd: 'FreeBSD' })[process.platform as string] ?? os.type();

/** Runs the script and the cleanup; the outcome comes from the first deciding command. */
export async function hostCliSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  if (!opts.allowHostCli) throw new Incompatible('host_cli runs only on an actor started with --allow-host-cli.');
  const d = w.details;
  const shellName = str(d.shell) || 'sh';
  const program = programFor(shellName);
  const runAs = resolveRunAs(d);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-host-cli-'));
  if (runAs.uid !== undefined) fs.chownSync(dir, runAs.uid, runAs.gid ?? runAs.uid);
  const delivered: Delivered[] = [];
  try {
    const early = await deliverFiles(w, signal, opts, delivered);
    if (early) return early;
    const outcome =
      shellName === 'python'
        ? await runPython(program, dir, runAs, str(d.raw_text), str(d.cleanup_raw_text), w.timeout_ms, signal)
        : await runScript(w, { shell: shellName === 'bash' ? 'bash' : 'sh', program, cwd: dir, env: runAs.env, uid: runAs.uid, gid: runAs.gid }, signal);
    const withUser = runAs.username ? { ...outcome.evidence, run_as: runAs.username } : outcome.evidence;
    return { ...outcome, evidence: delivered.length ? { ...withUser, files: delivered } : withUser };
  } finally {
    removeDelivered(w, delivered);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A bash/sh script in the host_cli syntax, then its cleanup. */
async function runScript(w: WorkPayload, launch: ShellLaunch, signal: AbortSignal): Promise<Outcome> {
  const d = w.details;
  const main = parseHostCli(str(d.raw_text));
  const cleanup = parseHostCli(str(d.cleanup_raw_text));
  const firstError = main.diagnostics[0] ?? cleanup.diagnostics[0];
  if (firstError) return { outcome: 'errored', blocked: null, message: `The script has an error on line ${firstError.line}: ${firstError.message}`, evidence: {} };
  const steps = main.commands.filter((c) => !c.conditions.some((x) => x.type === 'cleanup'));
  const cleanups = [...main.commands.filter((c) => c.conditions.some((x) => x.type === 'cleanup')), ...cleanup.commands];
  const runs: CommandRun[] = [];
  const cleanupRuns: CommandRun[] = [];
  let decided: CommandRun | null = null;
  const shells: PromptShell[] = [];
  const open = async () => {
    const s = await PromptShell.open(launch, signal);
    shells.push(s);
    return s;
  };
  try {
    const shell = await open();
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
    const cleanupShell = cleanups.length && !shell.alive ? await open() : shell;
    for (const c of cleanups) {
      if (signal.aborted) break;
      const failed: CommandRun = { command: c.command, exit_code: null, timed_out: false, output: '', logged: c.check_logs, matched: null, verdict: 'errored' };
      cleanupRuns.push(await runCommand(cleanupShell, c, signal).catch(() => failed));
    }
  } finally {
    // Cancelled work ends its processes at once; otherwise the shells exit.
    for (const s of shells) await (signal.aborted ? s.kill() : s.close());
  }
  const evidence = { shell: launch.shell, program: launch.program, commands: runs, cleanup: cleanupRuns };
  if (!decided) return { outcome: 'ran', blocked: false, message: null, evidence };
  const n = runs.length;
  const limit = timeoutOf(steps[n - 1]!);
  const why = decided.matched ? `matched ${decided.matched}` : decided.timed_out ? `timed out after ${limit} s waiting for the prompt` : decided.exit_code === null ? 'the shell ended' : 'no success condition matched';
  const message = `Command ${n} (${decided.command.length > 200 ? `${decided.command.slice(0, 200)}…` : decided.command}): ${why}`;
  if (decided.verdict === 'blocked') return { outcome: 'ran', blocked: true, message, evidence };
  if (decided.verdict === 'incompatible') return { outcome: 'incompatible', blocked: null, message, evidence };
  return { outcome: 'errored', blocked: null, message, evidence };
}

/** A python script runs as one program with the work's timeout (at most 300 s), then the cleanup script. */
async function runPython(program: string, dir: string, runAs: RunAs, script: string, cleanup: string, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  const limit = Math.min(timeoutMs, MAX_TIMEOUT_S * 1000);
  const main = await runProgram(program, dir, runAs, 'main.py', script, limit, signal);
  const after = cleanup.trim() ? await runProgram(program, dir, runAs, 'cleanup.py', cleanup, limit, signal) : null;
  const evidence = { shell: 'python', program, commands: [main], cleanup: after ? [after] : [] };
  if (main.exit_code === null) return { outcome: 'errored', blocked: null, message: main.timed_out ? 'The python script timed out.' : 'The python script did not run.', evidence };
  if (main.exit_code !== 0) return { outcome: 'ran', blocked: true, message: `The python script ended with exit code ${main.exit_code}`, evidence };
  return { outcome: 'ran', blocked: false, message: null, evidence };
}

function runProgram(program: string, dir: string, runAs: RunAs, file: string, text: string, timeoutMs: number, signal: AbortSignal): Promise<CommandRun> {
  fs.writeFileSync(path.join(dir, file), text, { mode: 0o644 });
  return new Promise((resolve) => {
    const ids = runAs.uid !== undefined ? { uid: runAs.uid, gid: runAs.gid ?? runAs.uid } : {};
    const child = spawn(program, [file], { cwd: dir, detached: true, env: runAs.env, stdio: ['ignore', 'pipe', 'pipe'], ...ids });
    let out = '';
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
    const take = (c: Buffer) => {
      if (out.length < MAX_OUTPUT_CHARS) out = (out + c.toString('utf8')).slice(0, MAX_OUTPUT_CHARS);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const done = (code: number | null) => {
      clearTimeout(t);
      signal.removeEventListener('abort', kill);
      resolve({ command: file, exit_code: timedOut ? null : code, timed_out: timedOut, output: excerpt(out), logged: true, matched: null, verdict: code === 0 ? 'passed' : 'blocked' });
    };
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
}
