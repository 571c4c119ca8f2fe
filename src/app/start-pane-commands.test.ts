// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PERMISSIONS } from '@/api/contracts/permissions';
import { formArgs, needsPrompt } from '@/commands/args-form';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { AnyCommand, CommandContext, DockControl } from '@/commands/types';
import { headlessCommands } from './headless-commands';

/**
 * Run from the palette on the Start pane (no job, Action, monitor, simulation or dashboard in view), a
 * command either applies and asks for what it needs (a pick list the form will not submit empty), or
 * is hidden; it never shows and then fails with "Select … first" / "Focus … first".
 */
const NEEDS_CONTEXT = /\b(first|focus|select)\b/i;
const USER = { id: 1, email: 'admin@example.com', first_name: 'A', last_name: 'D', role: 'admin' as const, permissions: [...PERMISSIONS] };
const opened: string[] = [];
const dock: DockControl = { openUrl: (u) => void opened.push(u), openBeside: (u) => void opened.push(u), focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
const startPane = (): CommandContext => ({
  ...emptyContext(),
  user: USER,
  permissions: new Set(PERMISSIONS),
  licensedFeatures: new Set(['cloud', 'endpoint']),
  dock,
  activePane: { kind: 'start', params: {}, id: 'start-1' },
  confirm: async () => true,
});

/** What choosing the command in the palette and pressing Enter (again, on its form) does: the form's refusal, or the command's outcome. */
async function chooseInPalette(r: CommandRegistry, c: AnyCommand): Promise<{ asked: string } | { error: string } | { ok: true }> {
  let args: Record<string, unknown> | undefined;
  if (needsPrompt(c)) {
    const given = formArgs(c, {});
    if ('error' in given) return { asked: given.error };
    args = given.args;
  }
  try {
    await Promise.race([r.execute(c.id, args, 'test'), new Promise((resolve) => setTimeout(resolve, 1000))]);
    return { ok: true };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

beforeEach(() => {
  // Nothing reaches a director here: a command that calls one fails with a network error (not a "first" error).
  vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))));
});
afterEach(() => vi.unstubAllGlobals());

describe('commands offered on the Start pane apply there', () => {
  it('no command listed on the Start pane throws a "Select … first" error without asking (each asks with a pick list, or is hidden)', async () => {
    const r = new CommandRegistry(startPane);
    r.registerAll(headlessCommands());
    const visible = r.visible();
    expect(visible.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const c of visible) {
      const outcome = await chooseInPalette(r, c);
      if ('error' in outcome && NEEDS_CONTEXT.test(outcome.error)) offenders.push(`${c.id} (${c.title}): ${outcome.error}`);
    }
    expect(offenders).toEqual([]);
  }, 60_000);

  it('the commands of the manual check ask for their entity on the Start pane: Job Summary Report a multiple pick of jobs, the dashboard commands a dashboard, the bulk token commands a token', async () => {
    const r = new CommandRegistry(startPane);
    r.registerAll(headlessCommands());
    const visible = new Map<string, AnyCommand>(r.visible().map((c) => [c.id, c]));
    const asked = async (id: string) => {
      const c = visible.get(id);
      expect(c, `${id} is listed on the Start pane`).toBeDefined();
      return chooseInPalette(r, c!);
    };
    expect(await asked('jobs.summaryReport')).toEqual({ asked: 'Choose one or more jobs.' });
    for (const id of ['reports.deleteDashboard', 'reports.renameDashboard', 'reports.addPanel', 'reports.exportPdf', 'reports.exportPng', 'reports.exportCsv', 'reports.duplicateDashboard', 'reports.shareDashboard']) {
      expect(await asked(id), id).toEqual({ asked: 'Choose a dashboard.' });
    }
    expect((await asked('reports.setTimeRange')) as { asked: string }).toMatchObject({ asked: expect.stringContaining('Choose a dashboard.') });
    for (const id of ['actions.previewPane', 'actions.copyVid', 'actions.viewRuns']) expect(await asked(id), id).toEqual({ asked: 'Choose an action.' });
    for (const id of ['simulations.edit', 'simulations.viewRuns', 'simulations.run']) expect(await asked(id), id).toEqual({ asked: 'Choose a simulation.' });
    for (const id of ['actors.downloadTokenCsv', 'actors.clearToken', 'actors.showInstaller', 'actors.registerPush']) expect(await asked(id), id).toEqual({ asked: 'Choose a bulk token.' });
  });

  it('commands that act on a row on screen and have no pick list are hidden on the Start pane', () => {
    const r = new CommandRegistry(startPane);
    r.registerAll(headlessCommands());
    const ids = new Set<string>(r.visible().map((c) => c.id));
    for (const id of ['jobs.showEvents', 'jobs.suspectEvents', 'jobs.export', 'actions.next', 'actions.previous', 'actions.addAll', 'simulations.next', 'simulations.previous', 'simulations.focusSearch', 'monitors.next', 'monitors.save', 'monitors.discard', 'runAs.edit', 'runAs.delete']) {
      expect(ids.has(id), id).toBe(false);
    }
  });

  it('scripts keep naming the entities: job_ids=12,14 opens the summary report of both jobs from the Start pane', async () => {
    const r = new CommandRegistry(startPane);
    r.registerAll(headlessCommands());
    opened.length = 0;
    await r.execute('jobs.summaryReport', { job_ids: '12,14' }, 'script');
    expect(opened).toEqual(['/reports/summary?job_ids[]=12&job_ids[]=14']);
    // A script's named job action or token still runs where the palette hides the command.
    expect(r.state('jobs.showEvents', { job_action_id: 5 }).visible).toBe(true);
    expect(r.state('actors.clearToken', { id: 3 }).visible).toBe(true);
  });
});
