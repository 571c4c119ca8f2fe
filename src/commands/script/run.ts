import { StoppedError, STOPPED_MESSAGE } from '@/commands/abort';
import type { CommandRegistry } from '@/commands/registry';
import type { DockControl } from '@/commands/types';
import { checkStep, WORKBENCH_ONLY } from './check';
import type { ArgValue, ParsedScript, ScriptStep, VarRef } from './parse';

/** `stopped`: the step was running when the run was stopped, and gave up its wait. */
export type StepStatus = 'ok' | 'failed' | 'skipped' | 'stopped';

export interface TranscriptStep {
  index: number;
  line: number;
  commandId: string;
  source: string;
  status: StepStatus;
  durationMs: number;
  result?: string;
  error?: string;
}

export type RunOutcome = 'ok' | 'failed' | 'stopped';

export interface RunOptions {
  dryRun?: boolean;
  continueOnError?: boolean;
  signal?: AbortSignal;
  /** The dock the steps act on (the Scripts pane's: panes open beside it and it cannot be closed). */
  dock?: DockControl | undefined;
  /** A terminal runner: commands that need the workbench are refused. */
  headless?: boolean;
  onStep?(step: TranscriptStep): void;
  /** Each successful step's whole result (the transcript keeps only a summary). */
  onResult?(step: TranscriptStep, result: unknown): void;
}

export interface RunResult {
  outcome: RunOutcome;
  steps: TranscriptStep[];
  failed: number;
}

class StepError extends Error {}

function lookup(vars: Map<string, unknown>, ref: VarRef): unknown {
  if (!vars.has(ref.name)) throw new StepError(`Variable $${ref.name} is not defined`);
  let value = vars.get(ref.name);
  const walked = [ref.name];
  for (const key of ref.path) {
    if (value === null || typeof value !== 'object' || !(key in value)) throw new StepError(`$${walked.join('.')} has no field "${key}"`);
    value = (value as Record<string, unknown>)[key];
    walked.push(key);
  }
  return value;
}

function resolve(value: ArgValue, vars: Map<string, unknown>): unknown {
  if (value.kind === 'literal') return value.text;
  if (value.kind === 'var') return lookup(vars, value);
  return value.parts.map((p) => (typeof p === 'string' ? p : String(lookup(vars, p)))).join('');
}

/** A short, readable form of a command's result for the transcript. */
export function summarize(result: unknown, max = 300): string | undefined {
  if (result === undefined || result === null) return undefined;
  let text: string;
  try {
    text = typeof result === 'string' ? result : JSON.stringify(result);
  } catch {
    text = String(result);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Runs the steps of a script through the registry's one choke point (`execute`), in order. Stops at
 * the first failure unless told to continue; a dry run only checks every step.
 */
export async function runScript(registry: CommandRegistry, parsed: ParsedScript, opts: RunOptions = {}): Promise<RunResult> {
  const steps: TranscriptStep[] = [];
  const vars = new Map<string, unknown>();
  const bound = new Set<string>();
  let failed = 0;
  let stopped = false;
  const push = (s: TranscriptStep) => {
    steps.push(s);
    opts.onStep?.(s);
  };
  for (const e of parsed.errors) {
    failed++;
    push({ index: steps.length, line: e.line, commandId: '', source: '', status: 'failed', durationMs: 0, error: `Line ${e.line}, column ${e.column}: ${e.message}` });
  }
  const halted = () => (failed > 0 && !opts.continueOnError) || stopped;

  for (const step of parsed.steps as ScriptStep[]) {
    const base = { index: steps.length, line: step.line, commandId: step.commandId, source: step.source };
    if (opts.signal?.aborted) stopped = true;
    if (halted()) {
      push({ ...base, status: 'skipped', durationMs: 0 });
      continue;
    }
    const started = performance.now();
    if (opts.dryRun) {
      const problems = checkStep(step, registry, registry.context(), bound, !!opts.headless);
      if (step.bind) bound.add(step.bind);
      if (problems.length) failed++;
      push({ ...base, status: problems.length ? 'failed' : 'ok', durationMs: performance.now() - started, ...(problems.length ? { error: problems.map((p) => p.message).join('; ') } : { result: 'valid' }) });
      continue;
    }
    try {
      const command = registry.get(step.commandId);
      if (command && opts.headless && command.needsWorkbench) throw new StepError(`${step.commandId} ${WORKBENCH_ONLY}`);
      const args: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(step.args)) args[k] = resolve(v, vars);
      const result = await registry.execute(step.commandId, command?.args ? args : Object.keys(args).length ? args : undefined, 'script', { signal: opts.signal, ...(opts.dock ? { dock: opts.dock } : {}) });
      if (step.bind) vars.set(step.bind, result);
      const summary = summarize(result);
      const done: TranscriptStep = { ...base, status: 'ok', durationMs: performance.now() - started, ...(summary !== undefined ? { result: summary } : {}) };
      push(done);
      opts.onResult?.(done, result);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (opts.signal?.aborted) {
        // Stopped while this step waited: the step is shown as stopped, not as a failure.
        stopped = true;
        push({ ...base, status: 'stopped', durationMs: performance.now() - started, error: e instanceof StoppedError ? e.message : `${STOPPED_MESSAGE} ${error}` });
        continue;
      }
      failed++;
      push({ ...base, status: 'failed', durationMs: performance.now() - started, error });
    }
  }
  return { outcome: stopped ? 'stopped' : failed > 0 ? 'failed' : 'ok', steps, failed };
}

/** The transcript as text, as the terminal runner prints it. */
export function formatTranscript(result: RunResult): string {
  const lines = result.steps.map((s) => {
    const status = s.status.toUpperCase().padEnd(7);
    const where = `line ${String(s.line).padStart(3)}`;
    const what = s.source || '(syntax)';
    const tail = s.error ? `  -> ${s.error}` : s.result ? `  -> ${s.result}` : '';
    return `${status} ${where}  ${what}  (${Math.round(s.durationMs)} ms)${tail}`;
  });
  const ok = result.steps.filter((s) => s.status === 'ok').length;
  const skipped = result.steps.filter((s) => s.status === 'skipped').length;
  const stopped = result.steps.some((s) => s.status === 'stopped') ? ', 1 stopped' : '';
  lines.push(`${result.outcome === 'ok' ? 'Script finished' : result.outcome === 'stopped' ? 'Script stopped' : 'Script failed'}: ${ok} ok, ${result.failed} failed, ${skipped} skipped${stopped}`);
  return lines.join('\n');
}
