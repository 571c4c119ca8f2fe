import { DEFAULT_PANEL_OPTIONS, GRID_COLUMNS, MAX_PANEL_ROWS, MAX_PANELS, libraryPanel, type DashboardPanel, type PanelKind } from '@/api/contracts/reports';

/** Pure edits of a dashboard's panel list (add, remove, move, resize), shared by commands and the grid. */

const DEFAULT_SIZE: Record<PanelKind, [number, number]> = {
  bullet: [2, 1],
  force_field: [2, 1],
  gauge: [1, 1],
  bar: [2, 1],
  pie: [1, 1],
  radar: [2, 2],
  line: [2, 1],
  block_rate: [2, 1],
  tree_map: [4, 1],
};

export function newPanel(kind: PanelKind, taken: readonly DashboardPanel[], random: () => number = Math.random): DashboardPanel {
  let uid = '';
  do uid = `${kind.replace('_', '')}${Math.floor(random() * 1e6).toString(36)}`;
  while (taken.some((p) => p.uid === uid));
  const [w, h] = DEFAULT_SIZE[kind];
  return { uid, kind, title: libraryPanel(kind).name, w, h, options: { ...DEFAULT_PANEL_OPTIONS, chartMode: kind === 'radar' ? 'totals' : 'blocked', group_by: kind === 'radar' ? 'tactic' : 'action_type' } };
}

export function addPanel(panels: readonly DashboardPanel[], kind: PanelKind): DashboardPanel[] {
  if (panels.length >= MAX_PANELS) throw new Error(`A dashboard holds at most ${MAX_PANELS} panels.`);
  return [...panels, newPanel(kind, panels)];
}

export const removePanel = (panels: readonly DashboardPanel[], uid: string): DashboardPanel[] => panels.filter((p) => p.uid !== uid);

/** Moves a panel one place earlier (-1) or later (+1) in reading order. */
export function movePanel(panels: readonly DashboardPanel[], uid: string, step: -1 | 1): DashboardPanel[] {
  const i = panels.findIndex((p) => p.uid === uid);
  const j = i + step;
  if (i < 0 || j < 0 || j >= panels.length) return [...panels];
  const out = [...panels];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** Grows or shrinks a panel by columns and rows, within 1..4 columns and 1..3 rows. */
export function resizePanel(panels: readonly DashboardPanel[], uid: string, dw: number, dh: number): DashboardPanel[] {
  return panels.map((p) => (p.uid === uid ? { ...p, w: Math.min(GRID_COLUMNS, Math.max(1, p.w + dw)), h: Math.min(MAX_PANEL_ROWS, Math.max(1, p.h + dh)) } : p));
}

export const updatePanel = (panels: readonly DashboardPanel[], uid: string, patch: Partial<DashboardPanel>): DashboardPanel[] => panels.map((p) => (p.uid === uid ? { ...p, ...patch } : p));
