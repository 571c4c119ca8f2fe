import { describe, expect, it, vi } from 'vitest';
import * as yup from 'yup';
import { sleepUnlessStopped, STOPPED_MESSAGE } from '@/commands/abort';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { Permission } from '@/api/contracts/permissions';
import { checkScript } from './check';
import { parseScript } from './parse';
import { formatTranscript, runScript } from './run';

function registry(permissions: Permission[] = ['jobs.cancel']) {
  const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissions) }));
  const cancelled: number[] = [];
  r.register({ id: 'run.sequence', title: 'Run Sequence', category: 'Run', args: yup.object({ sim_id: yup.number().required() }), run: ({ sim_id }) => ({ id: 900 + sim_id, status: 'running' }) });
  r.register({
    id: 'jobs.cancel',
    title: 'Cancel Job',
    category: 'Jobs',
    when: (c) => c.permissions.has('jobs.cancel'),
    args: yup.object({ id: yup.number().integer().positive().required() }),
    run: ({ id }) => {
      if (id === 13) throw new Error('Job 13 is already complete');
      cancelled.push(id);
      return { cancelled: id };
    },
  });
  r.register({ id: 'jobs.destroy', title: 'Delete Job', category: 'Jobs', when: (c) => c.permissions.has('jobs.destroy'), args: yup.object({ id: yup.number().required() }), run: () => 1 });
  r.register({ id: 'pane.open.jobs', title: 'Open Jobs', category: 'Panes', needsWorkbench: true, run: () => undefined });
  r.register({ id: 'script.echo', title: 'Echo', category: 'Scripts', args: yup.object({ text: yup.string().required() }), run: ({ text }) => text });
  r.register({
    id: 'script.wait',
    title: 'Wait',
    category: 'Scripts',
    args: yup.object({ ms: yup.number().required() }),
    run: async ({ ms }, ctx) => {
      await sleepUnlessStopped(ms, ctx.signal);
      return { waited_ms: ms };
    },
  });
  return { r, cancelled };
}

describe('script runner', () => {
  it('runs steps in order, binding results to variables', async () => {
    const { r, cancelled } = registry();
    const result = await runScript(r, parseScript('let job = run.sequence sim_id=4\njobs.cancel id=$job.id\nscript.echo text="cancelled ${job.id}"'));
    expect(result.outcome).toBe('ok');
    expect(cancelled).toEqual([904]);
    expect(result.steps.map((s) => [s.status, s.result])).toEqual([
      ['ok', '{"id":904,"status":"running"}'],
      ['ok', '{"cancelled":904}'],
      ['ok', 'cancelled 904'],
    ]);
  });

  it('stops at the first failure and skips the rest, unless told to continue', async () => {
    const script = parseScript('jobs.cancel id=13\njobs.cancel id=14');
    const stopped = await runScript(registry().r, script);
    expect(stopped.outcome).toBe('failed');
    expect(stopped.steps.map((s) => [s.status, s.error])).toEqual([
      ['failed', 'Job 13 is already complete'],
      ['skipped', undefined],
    ]);
    const { r, cancelled } = registry();
    const continued = await runScript(r, script, { continueOnError: true });
    expect(continued.steps.map((s) => s.status)).toEqual(['failed', 'ok']);
    expect(cancelled).toEqual([14]);
  });

  it('refuses what the user may not do, exactly as the registry does for a click', async () => {
    const result = await runScript(registry(['jobs.cancel']).r, parseScript('jobs.destroy id=1'));
    expect(result.steps[0]?.error).toBe('"Delete Job" is not available to you here');
  });

  it('refuses workbench-only commands in a terminal with a clear message', async () => {
    const result = await runScript(registry().r, parseScript('pane.open.jobs'), { headless: true });
    expect(result.steps[0]?.error).toBe('pane.open.jobs only works in the workbench (it opens, focuses or moves panes); a terminal runner cannot do it');
  });

  it('can be stopped: the remaining steps are skipped', async () => {
    const { r } = registry();
    const controller = new AbortController();
    const result = await runScript(r, parseScript('script.echo text=a\nscript.echo text=b\nscript.echo text=c'), {
      signal: controller.signal,
      onStep: (s) => s.index === 0 && controller.abort(),
    });
    expect(result.outcome).toBe('stopped');
    expect(result.steps.map((s) => s.status)).toEqual(['ok', 'skipped', 'skipped']);
  });

  it('Stop interrupts a step that is waiting: the signal reaches the command, the step shows as stopped, the rest is skipped', async () => {
    const { r } = registry();
    const controller = new AbortController();
    const started = performance.now();
    const result = await runScript(r, parseScript('script.echo text=a\nscript.wait ms=3600000\nscript.echo text=never'), {
      signal: controller.signal,
      // The wait has begun once the first step is reported; stop the run then.
      onStep: (s) => s.index === 0 && setTimeout(() => controller.abort(), 20),
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.outcome).toBe('stopped');
    expect(result.failed).toBe(0);
    expect(result.steps.map((s) => [s.status, s.error])).toEqual([
      ['ok', undefined],
      ['stopped', STOPPED_MESSAGE],
      ['skipped', undefined],
    ]);
    expect(formatTranscript(result)).toMatch(/^STOPPED +line +2 {2}script\.wait ms=3600000 {2}\(\d+ ms\) {2}-> Stopped before this step finished\.$/m);
    expect(formatTranscript(result).split('\n').at(-1)).toBe('Script stopped: 1 ok, 0 failed, 1 skipped, 1 stopped');
  });

  it('the run\'s signal is in the context of each command it executes, and only there', async () => {
    const r = new CommandRegistry(() => emptyContext());
    const signals: (AbortSignal | undefined)[] = [];
    r.register({ id: 'probe.signal', title: 'Probe', category: 'Test', run: (_a, ctx) => void signals.push(ctx.signal) });
    const controller = new AbortController();
    await runScript(r, parseScript('probe.signal'), { signal: controller.signal });
    await r.execute('probe.signal');
    expect(signals).toEqual([controller.signal, undefined]);
  });

  it('a dry run checks every step without running any', async () => {
    const { r, cancelled } = registry();
    const run = vi.spyOn(r, 'execute');
    const result = await runScript(r, parseScript('let job = run.sequence sim_id=4\njobs.cancel id=$job.id\njobs.cancel id=abc\nnope.command'), { dryRun: true, continueOnError: true });
    expect(run).not.toHaveBeenCalled();
    expect(cancelled).toEqual([]);
    expect(result.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'failed', 'failed']);
    expect(result.steps[2]?.error).toMatch(/^id: /);
    expect(result.steps[3]?.error).toBe('Unknown command "nope.command"');
  });

  it('reports every problem with its line and column as the user types', () => {
    const { r } = registry(['jobs.cancel']);
    const diagnostics = checkScript(parseScript('jobs.cancel id=1 force=yes\njobs.cancel\njobs.destroy id=2\njobs.cancel id=$x\nbad line'), r, r.context());
    expect(diagnostics.map((d) => [d.line, d.column, d.message])).toEqual([
      [1, 18, 'Unknown argument "force" for jobs.cancel (expected: id)'],
      [2, 1, 'jobs.cancel needs id=…'],
      [3, 1, 'jobs.destroy is not available to you (your role lacks the permission, or it needs the workbench)'],
      [4, 13, 'Variable $x is not defined before this line (bind it with let x = …)'],
      [5, 1, '"bad" is not a command id (ids look like jobs.cancel)'],
    ]);
  });

  it('prints a transcript a terminal can show', async () => {
    const result = await runScript(registry().r, parseScript('script.echo text=hi\njobs.cancel id=13'));
    const text = formatTranscript(result);
    expect(text).toMatch(/^OK +line +1 {2}script\.echo text=hi {2}\(\d+ ms\) {2}-> hi$/m);
    expect(text).toMatch(/^FAILED +line +2 {2}jobs\.cancel id=13 {2}\(\d+ ms\) {2}-> Job 13 is already complete$/m);
    expect(text.split('\n').at(-1)).toBe('Script failed: 1 ok, 1 failed, 0 skipped');
  });
});

describe('a script keeps its pane in place', () => {
  it("steps act on the run's dock: panes open through it, and pane.close on the Scripts pane fails with the dock's message", async () => {
    const opened: string[] = [];
    const workbenchDock = { openUrl: vi.fn(), focusNext: vi.fn(), moveActive: vi.fn(), closeActive: vi.fn(), resetLayout: vi.fn() };
    const r = new CommandRegistry(() => ({ ...emptyContext(), dock: workbenchDock }));
    r.register({ id: 'pane.open.jobs', title: 'Open Jobs', category: 'Panes', needsWorkbench: true, run: (_a, ctx) => ctx.dock?.openUrl('/jobs') });
    r.register({ id: 'pane.close', title: 'Close Pane', category: 'Workbench', needsWorkbench: true, run: (_a, ctx) => ctx.dock?.closeActive() });
    const scriptDock = {
      ...workbenchDock,
      openUrl: (url: string) => opened.push(url),
      closeActive: () => {
        throw new Error('pane.close would close the Scripts pane running this script, so the step was refused.');
      },
    };
    const result = await runScript(r, parseScript('pane.open.jobs\npane.close\nscript.echo text=after'), { dock: scriptDock });
    expect(opened).toEqual(['/jobs']);
    expect(workbenchDock.openUrl).not.toHaveBeenCalled();
    expect(result.steps.map((s) => [s.commandId, s.status, s.error])).toEqual([
      ['pane.open.jobs', 'ok', undefined],
      ['pane.close', 'failed', 'pane.close would close the Scripts pane running this script, so the step was refused.'],
      ['script.echo', 'skipped', undefined],
    ]);
  });
});
