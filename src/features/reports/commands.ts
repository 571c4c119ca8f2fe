import * as yup from 'yup';
import { dashboardPicks } from '@/commands/entity-picks';
import { pickFrom, scriptOnly, type PickSource } from '@/commands/pick';
import { commands, defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { inMenu } from '@/commands/menus';
import type { DashboardMenuArgs, PanelMenuArgs } from './menus';
import { CHART_MODES, GROUP_KEYS, PANEL_KINDS, type ChartMode, type Dashboard, type DashboardPanel, type GroupKey, type PanelKind } from '@/api/contracts/reports';
import { DEFAULT_TIME_RANGE, TIME_UNITS, describeTimeRange, keptWeekdays, resolveTimeRange, weekdayQuery, type TimeUnit } from '@/api/contracts/time-range';
import { userTimeZone } from '@/ui/datetime';
import { WEEKDAYS_MESSAGE, isWeekdayList } from '@/api/contracts/weekdays';
import { SIMULATION_TYPES, type SimulationType } from '@/api/contracts/simulations';
import { generateDraft, type CreateSimulationAnswer } from '@/api/contracts/simulation-draft';
import { http } from '@/api/http';
import { createDashboard, deleteDashboard, duplicateDashboard, fetchUntested, getDashboard, listDashboards, patchDashboard, qk } from './api';
import { addPanel, movePanel, removePanel, resizePanel, updatePanel } from './panels';
import { reportsStore } from './store';
import type { CsvOptions } from './exports';
import { CSV_ALL_EVENTS, CSV_DELIVERIES, CSV_QUOTES, CSV_SEPARATORS, type CsvSeparator } from '@/api/contracts/jobs';

/** The exports (panel data, CSV, PDF, images) load on first use: the workbench's first download stays small. */
const exportCode = () => import('./exports');

/**
 * Reports commands: dashboards (open, create, rename, duplicate, delete, share), panels (add through the
 * Panel Library, remove, move, resize, options), the time range, exports (PDF, PNG, CSV) and the
 * ATT&CK view. The dashboard acted on is the `id` or `name` argument, else the focused dashboard pane;
 * the panel is the focused one of that dashboard.
 *
 * Size: one list of command declarations (the house rule: one declaration per command in the feature's
 * commands) sharing private argument shapes and dashboard/panel resolvers; panels and exports live apart.
 */

export const DASHBOARDS_PANE = 'dashboards';
export const DASHBOARD_PANE = 'dashboard';
export const MITRE_PANE = 'mitre';

interface Ref {
  id?: number;
  name?: string;
}
const refShape = {
  id: yup.number().integer().positive().label('Dashboard id (optional)').optional(),
  name: yup.string().trim().max(120).label('Dashboard name (optional)').optional(),
};

async function dashboardOf(a: Ref | undefined, ctx: CommandContext): Promise<Dashboard> {
  if (a?.id) return getDashboard(a.id);
  if (a?.name) {
    const want = a.name.toLowerCase();
    const { dashboards } = await listDashboards();
    const hit = dashboards.find((d) => d.name.toLowerCase() === want) ?? dashboards.find((d) => d.name.toLowerCase().includes(want));
    if (!hit) throw new Error(`No dashboard is named "${a.name}".`);
    return getDashboard(hit.id);
  }
  const id = ctx.activePane?.kind === DASHBOARD_PANE ? Number(ctx.activePane.params.id) : NaN;
  if (!id) throw new Error('Open a dashboard first (or name one).');
  return getDashboard(id);
}

const inDashboard = (ctx: CommandContext) => ctx.activePane?.kind === DASHBOARD_PANE;

/**
 * The dashboard an export draws: the one on screen (its pane's query, kept current as it changes) when
 * it is open, so an export in the browser makes no call (MON-143); else read from the director (scripts,
 * the terminal runner, a dashboard named but not open).
 */
async function shownDashboard(a: Ref | undefined, ctx: CommandContext): Promise<Dashboard> {
  const id = a?.id ?? (a?.name ? undefined : inDashboard(ctx) ? Number(ctx.activePane?.params.id) : undefined);
  const shown = id ? ctx.queryClient?.getQueryData<Dashboard>(qk.dashboard(id)) : undefined;
  return shown ?? dashboardOf(a, ctx);
}
const refresh = async (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: qk.dashboards });

async function editPanels(a: Ref | undefined, ctx: CommandContext, change: (panels: DashboardPanel[], focused: string | null) => DashboardPanel[], uid?: string): Promise<Dashboard> {
  const d = await dashboardOf(a, ctx);
  // A panel's own button names its panel: the focus moves there (and follows it when it moves).
  if (uid) reportsStore.focused[d.id] = uid;
  if (!d.editable) throw new Error(`"${d.name}" belongs to ${d.owner.name}; duplicate it to change a copy of your own.`);
  const next = await patchDashboard(d.id, { panels: change(d.panels, reportsStore.focused[d.id] ?? null) });
  await refresh(ctx);
  return next;
}

const focusedUid = (panels: readonly DashboardPanel[], uid: string | null): string => {
  const hit = uid && panels.find((p) => p.uid === uid);
  if (!hit) throw new Error('Focus a panel first (Tab to it).');
  return hit.uid;
};

interface UntestedArgs {
  sim_type?: SimulationType;
  start?: string;
  end?: string;
  save?: boolean;
}
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The dashboard a command applies to anywhere once it is named: the palette asks with a pick list (the
 * focused dashboard chosen at first), scripts give its id or name.
 */
const focusedDashboardPicks: PickSource = {
  ...dashboardPicks,
  current: (ctx) => {
    const id = inDashboard(ctx) ? Number(ctx.activePane?.params.id) : NaN;
    if (!id) return null;
    const d = ctx.queryClient?.getQueryData<Dashboard>(qk.dashboard(id));
    return { value: id, label: d?.name ?? `Dashboard ${id}` };
  },
};
const pickedRefShape = {
  id: refShape.id.label('Dashboard').meta(pickFrom(focusedDashboardPicks)),
  name: refShape.name.meta(scriptOnly()),
};
const refArgs = yup.object(pickedRefShape) as yup.Schema<Ref>;

/** A panel command acts on the `uid` panel (its header button) or the focused one (hotkey, palette). */
type PanelRef = Ref & { uid?: string };
const uidShape = { uid: yup.string().max(40).label('Panel (optional; default the focused one)').optional() };
/** The dashboard of a panel command: the focused one (the palette does not ask), or the one a script or the panel's header names. */
const panelRefShape = { id: refShape.id.meta(scriptOnly()), name: refShape.name.meta(scriptOnly()) };
const panelArgs = yup.object({ ...panelRefShape, ...uidShape }) as yup.Schema<PanelRef>;

/** Where a dashboard command sits: the dashboard's toolbar and/or the list's row (only for its owner when `own`). */
const dashboardMenus = (title: string, order: number, where: ('toolbar/dashboard' | 'row/dashboard')[], own = false, style?: 'primary' | 'danger') =>
  where.map((menu) => inMenu<DashboardMenuArgs>(menu, { title, order, args: (d) => ({ id: d.id }), ...(own ? { when: (_c, d) => d.editable } : {}), ...(style ? { style } : {}) }));

const panelCommand = (id: string, title: string, hotkey: string, order: number, label: (panel: string) => string, change: (panels: DashboardPanel[], uid: string) => DashboardPanel[], keywords: string[] = []) =>
  defineCommand<PanelRef>({
    id: `reports.${id}` as const,
    title,
    category: 'Reports',
    keywords: ['panel', ...keywords],
    hotkey,
    hotkeyContext: DASHBOARD_PANE,
    when: inDashboard,
    menus: [inMenu<PanelMenuArgs>('panel/dashboard', { order, title: (p) => label(p.title), args: (p) => ({ id: p.id, uid: p.uid }) })],
    args: panelArgs,
    run: (a, ctx) => editPanels(a, ctx, (ps, f) => change(ps, focusedUid(ps, a?.uid ?? f)), a?.uid),
  });

export const reportsCommands: AnyCommand[] = [
  defineCommand<Ref>({
    id: 'reports.openDashboard',
    title: 'Open Dashboard',
    category: 'Reports',
    keywords: ['report', 'charts'],
    buttonLabel: 'Open',
    needsWorkbench: true,
    menus: dashboardMenus('Open', 0, ['row/dashboard']),
    // The palette picks the dashboard from a searchable list; scripts may give its name instead.
    args: yup.object({ id: refShape.id.meta(pickFrom(dashboardPicks)), name: refShape.name.meta(scriptOnly()) }) as yup.Schema<Ref>,
    run: async (a, ctx) => {
      if (!a?.id && !a?.name) return ctx.dock?.openUrl('/dashboards');
      const d = await dashboardOf(a, ctx);
      ctx.dock?.openUrl(`/dashboards/${d.id}`);
      return { id: d.id };
    },
  }),
  defineCommand<{ name?: string }>({
    id: 'reports.createDashboard',
    title: 'New Dashboard',
    category: 'Reports',
    keywords: ['create', 'add', 'report'],
    menus: [inMenu('toolbar/dashboards', { title: 'New Dashboard', order: 0, style: 'primary' })],
    args: yup.object({ name: yup.string().trim().max(120).label('Name (optional; rename later with F2)').optional() }) as yup.Schema<{ name?: string }>,
    run: async (a, ctx) => {
      const d = await createDashboard(a?.name || 'New dashboard');
      await refresh(ctx);
      ctx.dock?.openUrl(`/dashboards/${d.id}`);
      return { id: d.id };
    },
  }),
  defineCommand<Ref & { new_name?: string }>({
    id: 'reports.renameDashboard',
    title: 'Rename Dashboard',
    category: 'Reports',
    hotkey: 'f2',
    hotkeyContext: DASHBOARD_PANE,
    menus: dashboardMenus('Rename', 6, ['row/dashboard', 'toolbar/dashboard'], true),
    args: yup.object({ ...pickedRefShape, new_name: yup.string().trim().max(120).label('New name') }) as yup.Schema<Ref & { new_name?: string }>,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      if (!a?.new_name) {
        // Without a name (a button, a hotkey): the rename dialog asks for it.
        reportsStore.rename = { dashboardId: d.id, name: d.name };
        return { dialog: true };
      }
      await patchDashboard(d.id, { name: a.new_name });
      await refresh(ctx);
    },
  }),
  defineCommand<Ref>({
    id: 'reports.duplicateDashboard',
    title: 'Duplicate Dashboard',
    category: 'Reports',
    keywords: ['copy', 'clone'],
    menus: dashboardMenus('Duplicate', 5, ['row/dashboard', 'toolbar/dashboard']),
    args: refArgs,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      const copy = await duplicateDashboard(d.id);
      await refresh(ctx);
      ctx.dock?.openUrl(`/dashboards/${copy.id}`);
      return { id: copy.id };
    },
  }),
  defineCommand<Ref>({
    id: 'reports.deleteDashboard',
    title: 'Delete Dashboard',
    category: 'Reports',
    keywords: ['remove'],
    menus: dashboardMenus('Delete', 9, ['row/dashboard'], true, 'danger'),
    args: refArgs,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      if (!(await ctx.confirm(`Delete the dashboard "${d.name}"? This cannot be undone.`, { confirmLabel: 'Delete Dashboard', cancelLabel: 'Keep Dashboard' }))) return { deleted: false };
      await deleteDashboard(d.id);
      await refresh(ctx);
      return { deleted: true };
    },
  }),
  defineCommand<Ref>({
    id: 'reports.shareDashboard',
    title: 'Share Dashboard…',
    category: 'Reports',
    keywords: ['users', 'permission'],
    needsWorkbench: true,
    menus: dashboardMenus('Share', 7, ['toolbar/dashboard'], true),
    args: refArgs,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      if (!d.editable) throw new Error(`Only ${d.owner.name} can share "${d.name}".`);
      reportsStore.share = { dashboardId: d.id };
    },
  }),
  defineCommand<Ref & { kind?: PanelKind }>({
    id: 'reports.addPanel',
    title: 'Add Panel…',
    category: 'Reports',
    keywords: ['panel library', 'chart', 'widget'],
    hotkey: 'a',
    hotkeyContext: DASHBOARD_PANE,
    menus: dashboardMenus('Add Panel', 0, ['toolbar/dashboard'], true),
    args: yup.object({ ...pickedRefShape, kind: yup.string<PanelKind>().oneOf([...PANEL_KINDS]).label(`Panel kind (${PANEL_KINDS.join(', ')}; empty opens the Panel Library)`).optional() }) as yup.Schema<Ref & { kind?: PanelKind }>,
    run: async (a, ctx) => {
      if (!a?.kind) {
        const d = await dashboardOf(a, ctx);
        reportsStore.library = { dashboardId: d.id, location: 'dashboard' };
        return { library: true };
      }
      const next = await editPanels(a, ctx, (ps) => addPanel(ps, a.kind!));
      const added = next.panels[next.panels.length - 1]!;
      reportsStore.focused[next.id] = added.uid;
      return { uid: added.uid };
    },
  }),
  panelCommand('removePanel', 'Remove Panel', 'shift+delete', 9, (t) => `Remove ${t}`, (ps, uid) => removePanel(ps, uid), ['delete']),
  panelCommand('movePanelEarlier', 'Move Panel Earlier', 'alt+arrowleft', 0, (t) => `Move ${t} earlier`, (ps, uid) => movePanel(ps, uid, -1), ['reorder', 'left']),
  panelCommand('movePanelLater', 'Move Panel Later', 'alt+arrowright', 1, (t) => `Move ${t} later`, (ps, uid) => movePanel(ps, uid, 1), ['reorder', 'right']),
  panelCommand('widenPanel', 'Widen Panel', 'alt+shift+arrowright', 3, (t) => `Widen ${t}`, (ps, uid) => resizePanel(ps, uid, 1, 0), ['resize', 'wider']),
  panelCommand('narrowPanel', 'Narrow Panel', 'alt+shift+arrowleft', 2, (t) => `Narrow ${t}`, (ps, uid) => resizePanel(ps, uid, -1, 0), ['resize', 'narrower']),
  panelCommand('tallerPanel', 'Make Panel Taller', 'alt+shift+arrowdown', 5, (t) => `Make ${t} taller`, (ps, uid) => resizePanel(ps, uid, 0, 1), ['resize', 'height']),
  panelCommand('shorterPanel', 'Make Panel Shorter', 'alt+shift+arrowup', 4, (t) => `Make ${t} shorter`, (ps, uid) => resizePanel(ps, uid, 0, -1), ['resize', 'height']),
  defineCommand<PanelRef & { chartMode?: ChartMode; blockThreshold?: number; group_by?: GroupKey; title?: string }>({
    id: 'reports.panelOptions',
    title: 'Panel Options…',
    category: 'Reports',
    keywords: ['chart mode', 'threshold', 'group by', 'settings'],
    hotkey: 'o',
    hotkeyContext: DASHBOARD_PANE,
    when: inDashboard,
    menus: [inMenu<PanelMenuArgs>('panel/dashboard', { order: 8, title: (p) => `Options of ${p.title}`, args: (p) => ({ id: p.id, uid: p.uid }) })],
    args: yup.object({
      ...panelRefShape,
      ...uidShape,
      chartMode: yup.string<ChartMode>().oneOf([...CHART_MODES]).label('Chart mode (blocked or totals)').optional(),
      blockThreshold: yup.number().min(0).max(100).label('Block threshold % (0-100)').optional(),
      group_by: yup.string<GroupKey>().oneOf([...GROUP_KEYS]).label(`Group by (${GROUP_KEYS.join(', ')})`).optional(),
      title: yup.string().trim().max(120).label('Title').optional(),
    }) as yup.Schema<PanelRef & { chartMode?: ChartMode; blockThreshold?: number; group_by?: GroupKey; title?: string }>,
    run: async (a, ctx) => {
      const given = a && (a.chartMode !== undefined || a.blockThreshold !== undefined || a.group_by !== undefined || a.title);
      const d = await dashboardOf(a, ctx);
      const uid = focusedUid(d.panels, a?.uid ?? reportsStore.focused[d.id] ?? null);
      reportsStore.focused[d.id] = uid;
      if (!given) {
        reportsStore.options = { dashboardId: d.id, uid };
        return { dialog: true };
      }
      return editPanels({ id: d.id }, ctx, (ps) => {
        const p = ps.find((x) => x.uid === uid)!;
        const options = { ...p.options, ...(a.chartMode ? { chartMode: a.chartMode } : {}), ...(a.blockThreshold !== undefined ? { blockThreshold: a.blockThreshold } : {}), ...(a.group_by ? { group_by: a.group_by } : {}) };
        return updatePanel(ps, uid, { options, ...(a.title ? { title: a.title } : {}) });
      });
    },
  }),
  defineCommand<Ref & { count: number; unit: TimeUnit; days?: string }>({
    id: 'reports.setTimeRange',
    title: 'Set Dashboard Time Range',
    category: 'Reports',
    keywords: ['last', 'days', 'hours', 'weeks', 'relative'],
    hotkey: 't',
    hotkeyContext: DASHBOARD_PANE,
    args: yup.object({
      ...pickedRefShape,
      count: yup.number().integer('count must be a whole number').min(0, 'count must not be negative').required('count is required').label('Last (count)'),
      unit: yup.string<TimeUnit>().oneOf([...TIME_UNITS]).required('unit is required').label(`Unit (${TIME_UNITS.join(', ')})`),
      days: yup
        .string()
        .test('days', WEEKDAYS_MESSAGE, (v) => isWeekdayList(v ?? ''))
        .label('Days of the week (optional: a comma list of Su, M, T, W, Th, F, S; empty for every day)')
        .optional(),
    }) as yup.Schema<Ref & { count: number; unit: TimeUnit; days?: string }>,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      if (!d.editable) throw new Error(`"${d.name}" belongs to ${d.owner.name}; duplicate it to change its time range.`);
      const days = keptWeekdays({ repeat_week_days: a.days ?? '' });
      await patchDashboard(d.id, { time_range: { rangeType: 'rel', relBackCount: a.count, relUnit: a.unit, start: null, end: null, ...(days ? { repeat_week_days: days } : {}) } });
      await refresh(ctx);
    },
  }),
  defineCommand<Ref & { filename?: string }>({
    id: 'reports.exportPdf',
    title: 'Export Dashboard as PDF',
    category: 'Reports',
    keywords: ['print', 'report', 'download'],
    hotkey: 'mod+shift+p',
    hotkeyContext: DASHBOARD_PANE,
    buttonLabel: 'Export PDF',
    menus: dashboardMenus('Export PDF', 1, ['toolbar/dashboard']),
    args: yup.object({ ...pickedRefShape, filename: yup.string().max(200).label('File name (optional)').optional() }) as yup.Schema<Ref & { filename?: string }>,
    run: async (a, ctx) => (await exportCode()).exportDashboardPdf(await shownDashboard(a, ctx), a?.filename, ctx.queryClient),
  }),
  defineCommand<Ref & { filename?: string }>({
    id: 'reports.exportPng',
    title: 'Export Dashboard as Image',
    category: 'Reports',
    keywords: ['png', 'screenshot', 'picture', 'zip'],
    needsWorkbench: true,
    hotkey: 'mod+shift+i',
    hotkeyContext: DASHBOARD_PANE,
    buttonLabel: 'Export Image',
    menus: dashboardMenus('Export Image', 2, ['toolbar/dashboard']),
    args: yup.object({ ...pickedRefShape, filename: yup.string().max(200).label('File name (optional)').optional() }) as yup.Schema<Ref & { filename?: string }>,
    run: async (a, ctx) => (await exportCode()).exportDashboardPng(await shownDashboard(a, ctx), a?.filename),
  }),
  defineCommand<Ref & Partial<CsvOptions>>({
    id: 'reports.exportCsv',
    title: 'Export Dashboard Data as CSV',
    category: 'Reports',
    keywords: ['csv', 'spreadsheet', 'data'],
    hotkey: 'e',
    hotkeyContext: DASHBOARD_PANE,
    buttonLabel: 'Export CSV',
    menus: dashboardMenus('Export CSV', 3, ['toolbar/dashboard']),
    args: yup.object({
      ...pickedRefShape,
      filename: yup.string().max(200).label('File name (optional; .csv is added)').optional(),
      separator: yup.string<CsvSeparator>().oneOf(Object.keys(CSV_SEPARATORS) as CsvSeparator[]).label('Separator (comma, semicolon, space, tab)').optional(),
      delivery: yup.string<'download' | 'popup'>().oneOf([...CSV_DELIVERIES]).label('Delivery (download or popup)').optional(),
      all_events: yup.string<'visible' | 'all'>().oneOf([...CSV_ALL_EVENTS]).label('Rows (visible or all)').optional(),
      regex: yup.string<'double' | 'single'>().oneOf([...CSV_QUOTES]).label('Quotes inside values (double or single)').optional(),
    }) as yup.Schema<Ref & Partial<CsvOptions>>,
    run: async (a, ctx) => {
      const d = await dashboardOf(a, ctx);
      const { id: _id, name: _name, ...given } = a ?? {};
      // A button or hotkey in the workbench (no option given) asks with the export options dialog.
      if (ctx.dock && !Object.values(given).some((v) => v !== undefined)) {
        reportsStore.csv = { dashboardId: d.id };
        return { dialog: true };
      }
      const { exportDashboardCsv, DEFAULT_CSV_OPTIONS } = await exportCode();
      return exportDashboardCsv(d, { ...DEFAULT_CSV_OPTIONS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) });
    },
  }),
  defineCommand<{ tactics?: string; start?: string; end?: string }>({
    id: 'reports.openMitre',
    title: 'Open ATT&CK View',
    category: 'Reports',
    keywords: ['mitre', 'matrix', 'tactics', 'techniques', 'coverage'],
    buttonLabel: 'ATT&CK View',
    needsWorkbench: true,
    menus: [inMenu('toolbar/dashboards', { title: 'ATT&CK View', order: 1 })],
    args: yup.object({ tactics: yup.string().max(200).label('Tactic ids, comma separated (optional)').optional().meta(scriptOnly()) }) as yup.Schema<{ tactics?: string }>,
    run: (a, ctx) => {
      const q = new URLSearchParams();
      for (const t of (a?.tactics ?? '').split(',').map((s) => s.trim()).filter(Boolean)) q.append('active_tactics[]', t);
      ctx.dock?.openUrl(`/analyze/mitre${q.size ? `?${q.toString()}` : ''}`);
    },
  }),
  defineCommand<UntestedArgs>({
    id: 'reports.draftUntested',
    title: 'Draft Simulation of Untested Techniques',
    buttonLabel: 'Draft Untested',
    category: 'Reports',
    keywords: ['mitre', 'att&ck', 'coverage', 'gaps', 'simulation', 'sequence', 'untested', 'queue'],
    hotkey: 'shift+d',
    hotkeyContext: MITRE_PANE,
    when: (ctx) => ctx.permissions.has('simulations.edit'),
    args: yup.object({
      sim_type: yup.string<SimulationType>().oneOf([...SIMULATION_TYPES]).label('Type (sequence or eval)').optional(),
      start: yup.string().matches(ISO_INSTANT, 'start must be an ISO 8601 time such as 2026-01-31T00:00:00Z').label('Range start (optional; default the ATT&CK view\'s range, else the last 30 days)').optional().meta(scriptOnly()),
      end: yup.string().matches(ISO_INSTANT, 'end must be an ISO 8601 time such as 2026-01-31T00:00:00Z').label('Range end (optional; default now)').optional().meta(scriptOnly()),
      save: yup.boolean().label('Save the draft as a simulation (terminal runner; the workbench opens it in the queue)').optional().meta(scriptOnly()),
    }) as yup.Schema<UntestedArgs>,
    run: async (a, ctx) => {
      // "Untested" over the given range, else the ATT&CK view's (its default, the last 30 days, when it is not open).
      const range = reportsStore.mitreRange ?? DEFAULT_TIME_RANGE;
      const resolved = resolveTimeRange(range);
      const end = a?.end ? new Date(a.end) : resolved.end;
      const start = a?.start ? new Date(a.start) : a?.end ? new Date(end.getTime() - (resolved.end.getTime() - resolved.start.getTime())) : resolved.start;
      if (start > end) throw new Error('start must not be after end.');
      const described = a?.start || a?.end ? `${start.toISOString()} to ${end.toISOString()}` : describeTimeRange(range);
      // The view's days of the week count with the view's range, not with a range the script gives.
      const u = await fetchUntested({ start: start.toISOString(), end: end.toISOString(), ...(a?.start || a?.end ? {} : weekdayQuery(range, userTimeZone)) });
      if (!u.actions.length) throw new Error(`Every ATT&CK technique that has Actions ran in the range (${described}): nothing is untested.`);
      const actions = u.actions.slice(0, MAX_DRAFT_STEPS);
      const ids = u.techniques.map((t) => t.id);
      const sim_desc = `Actions of the ${ids.length} ATT&CK techniques with no run (${described}): ${ids.join(', ')}.${u.actions.length > actions.length ? ` The first ${actions.length} of ${u.actions.length} Actions.` : ''}`;
      const sim_name = `Untested ATT&CK techniques (${ids.length})`;
      const sim_type = a?.sim_type ?? 'sequence';
      const found = { techniques: ids, actions: actions.map((x) => x.vid) };
      if (ctx.dock) {
        await commands.execute('actions.addAll', { sim_type, actions: actions.map((x) => ({ id: x.id, name: x.name })), sim_name, sim_desc }, 'button');
        return found;
      }
      // A terminal run has no queue pane to open the draft in: it answers the draft, and saves it when asked.
      const draft = { ...generateDraft(actions, [], sim_type), sim_name, sim_desc };
      if (!a?.save) return { ...found, draft: { sim_type, sim_name, sim_desc, steps: draft.steps, step_names: draft.step_names } };
      const saved = await http.post<CreateSimulationAnswer>('/simulations.json', { sim_type, sim_name, sim_desc, steps: draft.steps, step_names: draft.step_names });
      return { simulation: { id: saved.id, vid: saved.vid }, ...found };
    },
  }),
];

/** A simulation holds at most 500 steps (POST /simulations.json). */
const MAX_DRAFT_STEPS = 500;
