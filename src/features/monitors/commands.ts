import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import type { DriftItem } from '@/api/contracts/monitors';
import { inMenu } from '@/commands/menus';
import type { PaneContextKey } from '@/commands/pane-contexts';
import { pickFrom } from '@/commands/pick';
import { noticeFlash } from '@/ui/toasts';
import { deleteMonitor, duplicateMonitor, fetchDrift, fetchMonitor, monitorKeys, pauseMonitor, resumeMonitor, runMonitorNow } from './api';
import { actionPicks, simulationPicks } from '@/commands/entity-picks';
import { monitorPicks } from './picks';
import { monitorEditorPane, monitorsListPane, type MonitorEditorApi, type MonitorsListApi } from './pane-context';
import { monitorStore, type CurrentMonitor } from './store';
import './menus';

export const MONITORS_PANE = 'monitors';
export const MONITOR_EDIT_PANE = 'monitor-edit';
export const MONITOR_STATS_PANE = 'monitor-stats';
const CATEGORY = 'Monitors';
/** The list's row menu and its toolbar list these commands. */
export const MONITOR_ROW_MENU = 'row/monitor';
export const MONITOR_TOOLBAR_MENU = 'toolbar/monitors';

interface RefArgs {
  id?: number | undefined;
}
const refArgs = yup.object({
  id: yup.number().integer().positive().label('Monitor').optional().meta(pickFrom(monitorPicks)),
}) as yup.Schema<RefArgs>;

/** The Monitors list's selection, when the command runs in (or from) that pane. */
const selectedIn = (ctx: CommandContext): CurrentMonitor | null => ctx.pane(monitorsListPane)?.selected() ?? null;

/** The monitor a command acts on: its id argument, else the list's selection. */
export async function resolveMonitor(args: RefArgs | undefined, ctx: CommandContext): Promise<CurrentMonitor> {
  const selected = selectedIn(ctx);
  if (args?.id) {
    if (selected?.id === args.id) return selected;
    const m = await fetchMonitor(args.id);
    return { id: m.id, name: m.name, paused: m.paused };
  }
  if (selected) return selected;
  throw new Error('Select a monitor in the Monitors list first, or pick one.');
}

/** Whether the monitor named (or selected) is paused, when the pane knows it; undefined otherwise. */
const pausedOf = (ctx: CommandContext, args?: RefArgs): boolean | undefined => {
  const s = selectedIn(ctx);
  return s && (args?.id === undefined || args.id === s.id) ? s.paused : undefined;
};

const dock = (ctx: CommandContext) => {
  if (!ctx.dock) throw new Error('This command needs the workbench.');
  return ctx.dock;
};
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: monitorKeys.all });
const canEdit = (ctx: CommandContext) => ctx.permissions.has('monitors.edit');

/** A command on one monitor, with a key in the Monitors list and an entry in its row menu. */
function onMonitor(
  verb: string,
  title: string,
  hotkey: string,
  keywords: string[],
  act: (m: CurrentMonitor, ctx: CommandContext) => unknown,
  extra: Pick<AnyCommand, 'when' | 'enabled' | 'needsWorkbench'> = {},
): AnyCommand {
  return defineCommand<RefArgs>({
    id: `monitors.${verb}`,
    title,
    category: CATEGORY,
    keywords: ['monitor', ...keywords],
    hotkey,
    hotkeyContext: MONITORS_PANE,
    menus: [inMenu<{ id: number }>(MONITOR_ROW_MENU, { args: (m) => ({ id: m.id }) })],
    args: refArgs,
    when: canEdit,
    ...extra,
    run: async (args, ctx) => act(await resolveMonitor(args, ctx), ctx),
  });
}

/** A command of the focused list or editor pane, acting through the context that pane provides. */
function paneCommand<T>(id: string, title: string, hotkey: string, pane: string, key: PaneContextKey<T>, act: (api: T) => unknown, missing: string, buttonLabel?: string): AnyCommand {
  return defineCommand({
    id: `monitors.${id}` as const,
    title,
    ...(buttonLabel ? { buttonLabel } : {}),
    category: CATEGORY,
    hotkey,
    hotkeyContext: pane,
    needsWorkbench: true,
    // Listed where its pane is focused (or offers its context, or no pane is): hidden on the Start pane.
    when: (ctx) => !ctx.activePane || ctx.activePane.kind === pane || ctx.pane(key) !== undefined,
    run: (_args, ctx) => {
      const api = ctx.pane(key);
      if (!api) throw new Error(missing);
      return act(api);
    },
  });
}
const LIST_MISSING = 'Open the Monitors list first.';
const EDITOR_MISSING = 'Open a monitor in the editor first.';

export const monitorCommands: AnyCommand[] = [
  paneCommand<MonitorsListApi>('next', 'Next Monitor', 'j', MONITORS_PANE, monitorsListPane, (p) => p.move(1), LIST_MISSING),
  paneCommand<MonitorsListApi>('previous', 'Previous Monitor', 'k', MONITORS_PANE, monitorsListPane, (p) => p.move(-1), LIST_MISSING),
  paneCommand<MonitorsListApi>('focusSearch', 'Search the Monitors', '/', MONITORS_PANE, monitorsListPane, (p) => p.focusSearch(), LIST_MISSING),
  paneCommand<MonitorEditorApi>('save', 'Save Monitor', 'mod+s', MONITOR_EDIT_PANE, monitorEditorPane, (p) => p.save(), EDITOR_MISSING, 'Save'),
  paneCommand<MonitorEditorApi>('discard', 'Discard Monitor Draft', 'alt+shift+c', MONITOR_EDIT_PANE, monitorEditorPane, (p) => p.discard(), EDITOR_MISSING, 'Discard'),
  defineCommand({
    id: 'monitors.new',
    title: 'New Monitor',
    category: CATEGORY,
    keywords: ['monitor', 'create', 'schedule', 'add'],
    hotkey: 'n',
    hotkeyContext: MONITORS_PANE,
    menus: [MONITOR_TOOLBAR_MENU],
    needsWorkbench: true,
    when: canEdit,
    run: (_args, ctx) => dock(ctx).openUrl('/monitors/new'),
  }),
  // The simulation header's Monitor button (issue 19) hands its simulation to the editor through this command.
  defineCommand<{ simulation_id: number }>({
    id: 'monitors.fromSimulation',
    title: 'New Monitor from Simulation…',
    category: CATEGORY,
    keywords: ['monitor', 'create', 'sequence', 'evaluation', 'simulation'],
    needsWorkbench: true,
    when: canEdit,
    args: yup.object({ simulation_id: yup.number().integer().positive().required().label('Simulation').meta(pickFrom(simulationPicks)) }),
    run: (args, ctx) => dock(ctx).openUrl(`/monitors/new?simulation_id=${args.simulation_id}`),
  }),
  defineCommand<{ action_ids: number[] }>({
    id: 'monitors.fromActions',
    title: 'New Monitor from Actions…',
    category: CATEGORY,
    keywords: ['monitor', 'create', 'actions', 'library', 'selection'],
    needsWorkbench: true,
    when: canEdit,
    args: yup.object({ action_ids: yup.array(yup.number().integer().positive().required()).min(1, 'Pick at least one Action').required().label('Actions').meta(pickFrom(actionPicks)) }),
    run: (args, ctx) => dock(ctx).openUrl(`/monitors/new?action_ids=${args.action_ids.join(',')}`),
  }),
  onMonitor('edit', 'Edit Monitor', 'e', ['change', 'definition', 'open'], (m, ctx) => dock(ctx).openUrl(`/monitors/${m.id}/edit`), { needsWorkbench: true, when: () => true }),
  onMonitor('duplicate', 'Duplicate Monitor', 'c', ['copy', 'clone'], async (m, ctx) => {
    const copy = await duplicateMonitor(m.id);
    await refresh(ctx);
    noticeFlash(`Created ${copy.name} (paused).`);
    return { id: copy.id };
  }),
  onMonitor('pause', 'Pause Monitor', 'p', ['stop', 'suspend'], async (m, ctx) => {
    await pauseMonitor(m.id);
    await refresh(ctx);
    noticeFlash(`Paused ${m.name}.`);
  }, { enabled: (ctx, args) => pausedOf(ctx, args) !== true }),
  onMonitor('resume', 'Resume Monitor', 'shift+p', ['start', 'unpause'], async (m, ctx) => {
    await resumeMonitor(m.id);
    await refresh(ctx);
    noticeFlash(`Resumed ${m.name}.`);
  }, { enabled: (ctx, args) => pausedOf(ctx, args) !== false }),
  onMonitor('runNow', 'Run Monitor Now', 'shift+r', ['run', 'job', 'execute', 'now'], async (m, ctx) => {
    const { job_id } = await runMonitorNow(m.id);
    await refresh(ctx);
    noticeFlash(`Started job ${job_id} for ${m.name}.`);
    return { job_id };
  }, { when: (ctx) => ctx.permissions.has('jobs.run') }),
  onMonitor('delete', 'Delete Monitor…', 'shift+d', ['remove', 'destroy'], async (m, ctx) => {
    if (!(await ctx.confirm(`Are you sure you want to delete the monitor ${m.name}? Its past jobs are kept.`, { confirmLabel: 'Delete Monitor', cancelLabel: 'Keep Monitor' }))) return { deleted: false };
    await deleteMonitor(m.id);
    await refresh(ctx);
    noticeFlash(`Deleted ${m.name}.`);
    return { deleted: true };
  }),
  defineCommand({
    id: 'monitors.drift',
    title: 'Show Drifting Monitor Steps',
    category: CATEGORY,
    keywords: ['monitor', 'drift', 'changed', 'regression', 'steps'],
    hotkey: 'alt+shift+d',
    menus: [MONITOR_TOOLBAR_MENU],
    run: async (_args, ctx): Promise<DriftItem[]> => {
      const items = await fetchDrift();
      if (ctx.dock) {
        monitorStore.showDrift = true;
        ctx.dock.openUrl('/monitors');
      }
      return items;
    },
  }),
];
