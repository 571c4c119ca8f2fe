/**
 * One interactive shell session for host_cli: the shell is spawned with a stdin pipe and its stderr
 * joined to its stdout (one stream, in order), and its prompt PS1 is set to a unique marker that
 * carries the last exit code ('auto' prompt). Each command is written to stdin as it is; the caller
 * then waits for the prompt (the marker, or its own prompt_regex) in that command's output.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';

/** At most this much output of one command is kept (for the conditions and the evidence). */
export const MAX_OUTPUT_CHARS = 64 * 1024;
/** How long a new shell may take to show its first prompt. */
const START_TIMEOUT_MS = 10_000;
/** After a timeout the command is interrupted (SIGINT); the shell that shows no prompt this long after is killed. */
const INTERRUPT_GRACE_MS = 2_000;

/** The interactive flags of each shell: no start-up files, no line editing (which would echo the input). */
const INTERACTIVE_ARGS: Record<string, string[]> = {
  bash: ['--norc', '--noprofile', '--noediting', '-i'],
  sh: ['-i'],
};

export interface ShellLaunch {
  shell: 'bash' | 'sh';
  program: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  uid?: number | undefined;
  gid?: number | undefined;
}

export class PromptShell {
  private child: ChildProcessWithoutNullStreams;
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  private waiter: (() => void) | null = null;
  private exited = false;
  /** The shell's own exit code once it ended (a command such as `exit 3` ends it). */
  exitCode: number | null = null;
  private readonly marker = `__vigil_${crypto.randomBytes(8).toString('hex')}_`;
  /** The 'auto' prompt: the marker and the last exit code. */
  readonly autoPrompt = new RegExp(`${this.marker}(\\d+)__ `);
  private readonly allPrompts = new RegExp(`${this.marker}(\\d+)__ `, 'g');

  private constructor(l: ShellLaunch) {
    const env: NodeJS.ProcessEnv = { ...l.env, PS1: `${this.marker}$?__ `, PS2: '', HISTFILE: '' };
    delete env.ENV;
    delete env.BASH_ENV;
    delete env.PROMPT_COMMAND;
    this.child = spawn('/bin/sh', ['-c', 'exec 2>&1; exec "$@"', 'vigil-shell', l.program, ...INTERACTIVE_ARGS[l.shell]!], {
      cwd: l.cwd,
      detached: true,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(l.uid !== undefined ? { uid: l.uid, gid: l.gid ?? l.uid } : {}),
    });
    this.child.stdin.on('error', () => {});
    this.child.on('error', () => this.ended(null));
    this.child.on('exit', (code) => this.ended(code));
    this.child.stdout.on('data', (c: Buffer) => this.take(this.decoder.write(c)));
    this.child.stderr.on('data', (c: Buffer) => this.take(this.decoder.write(c)));
  }

  /** Starts a shell and waits for its first prompt (what it printed before is dropped). */
  static async open(l: ShellLaunch, signal: AbortSignal): Promise<PromptShell> {
    const s = new PromptShell(l);
    if (!(await s.waitFor(s.autoPrompt, Date.now() + START_TIMEOUT_MS, signal))) {
      s.kill();
      throw new Error(signal.aborted ? 'aborted' : `The ${l.shell} shell did not start (no prompt within ${START_TIMEOUT_MS / 1000} s).`);
    }
    return s;
  }

  private take(text: string) {
    if (this.buf.length < MAX_OUTPUT_CHARS + 1024) this.buf += text;
    this.waiter?.();
  }

  private ended(code: number | null) {
    this.exitCode = code;
    this.exited = true;
    this.waiter?.();
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Writes one command line; the output collected from now on is this command's. */
  send(command: string): void {
    this.buf = '';
    this.child.stdin.write(`${command}\n`);
  }

  /** Waits until the output since `send` matches `re`: false when the deadline passed, the shell ended or the work was aborted. */
  async waitFor(re: RegExp, deadline: number, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (re.test(this.buf)) return true;
      if (!this.alive || signal.aborted || Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          this.waiter = null;
          resolve();
        };
        const t = setTimeout(done, Math.max(1, deadline - Date.now()));
        signal.addEventListener('abort', done, { once: true });
        this.waiter = done;
      });
    }
  }

  /** The command's output so far without the shell's prompts, at most MAX_OUTPUT_CHARS. */
  output(): string {
    return this.buf.replace(this.allPrompts, '').slice(0, MAX_OUTPUT_CHARS);
  }

  /** The exit code the shell's last prompt since `send` showed, or null (no prompt yet). */
  lastExitCode(): number | null {
    const codes = [...this.buf.matchAll(this.allPrompts)];
    const last = codes[codes.length - 1];
    return last ? Number(last[1]) : null;
  }

  /** Interrupts the running command (SIGINT to the session); kills the shell if no prompt follows. */
  async interrupt(signal: AbortSignal): Promise<void> {
    if (!this.alive || !this.child.pid) return;
    const before = this.buf;
    this.buf = '';
    try {
      process.kill(-this.child.pid, 'SIGINT');
    } catch {
      /* already ended */
    }
    const back = await this.waitFor(this.autoPrompt, Date.now() + INTERRUPT_GRACE_MS, signal);
    this.buf = before;
    if (!back) this.kill();
  }

  kill(): void {
    if (this.exited || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
    this.exited = true;
  }

  async close(): Promise<void> {
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
