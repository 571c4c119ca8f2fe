import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { CommandToolbar, runFrom, useMenuItems, usePaneCommandContext } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import type { Dashboard, DashboardPanel } from '@/api/contracts/reports';
import type { PaneProps } from '@/panes/types';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { TimeRangePicker } from '@/ui/time-range-picker';
import { usePaneTitle } from '@/panes/use-pane-title';
import { patchDashboard, qk } from './api';
import { PanelView, type PanelState } from './panel-view';
import { dashboardQuery, dashboardRequests, noteShownClock, panelClock, panelsQuery } from './panel-data';
import { reportsStore } from './store';

/** One dashboard: its time range, its toolbar (commands as buttons) and the grid of panels. */

const ROW_PX = 230;

export function DashboardPane({ params }: PaneProps) {
  const id = Number(params.id);
  const q = useQuery({ ...dashboardQuery(id), enabled: id > 0 });
  // The tab shows the dashboard's name (and follows a rename).
  usePaneTitle(q.data?.name);
  if (!(id > 0)) return <p className="p-4 text-sm text-red-400">This dashboard address has no valid id.</p>;
  if (q.isPending) return <p className="p-4 text-sm text-muted">Loading dashboard…</p>;
  if (q.isError) return <p className="p-4 text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>;
  return <DashboardView d={q.data} />;
}

function DashboardView({ d }: { d: Dashboard }) {
  const qc = useQueryClient();
  const snap = useSnapshot(reportsStore);
  const focused = snap.focused[d.id] ?? null;
  // Every panel's figures in one call; relative ranges resolve per minute, so the key (and the call) changes
  // at most once a minute, and the previous figures stay on screen while the next ones load.
  const clock = panelClock();
  const { queries, keyOf } = dashboardRequests(d, clock);
  const minute = clock.getTime();
  useEffect(() => noteShownClock(d.id, minute), [d.id, minute]);
  const data = useQuery({ ...panelsQuery(queries, qc), refetchInterval: 60_000, placeholderData: keepPreviousData });
  const stateOf = (uid: string): PanelState => {
    const answer = data.data?.[keyOf[uid]!];
    return { answer, error: answer ? null : data.error };
  };
  const setRange = async (time_range: TimeRangeConfig) => {
    if (!d.editable) return;
    await patchDashboard(d.id, { time_range });
    await qc.invalidateQueries({ queryKey: qk.dashboards });
  };
  return (
    <div className="flex h-full flex-col" data-dashboard={d.id}>
      {/* The header stays above the panels' own scroller (not sticky over it), so a panel scrolled into
          view, or focused by keyboard, is never under a header that wrapped onto two lines. */}
      <div className="z-10 flex flex-none flex-wrap items-center gap-2 border-b border-line bg-panel px-3 py-2">
        <h2 className="mr-2 text-base font-semibold">{d.name}</h2>
        {!d.editable && <span className="text-xs text-muted">Shared by {d.owner.name} (read only)</span>}
        <TimeRangePicker value={d.time_range} onChange={(r) => void setRange(r)} />
        <div className="ml-auto">
          <CommandToolbar menu="toolbar/dashboard" args={{ id: d.id, editable: d.editable }} label="Dashboard actions" />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        {d.panels.length === 0 ? (
          <p className="p-4 text-sm text-muted">This dashboard has no panels yet. Press A or choose Add Panel to pick one from the Panel Library.</p>
        ) : (
          <div className="grid grid-cols-4 gap-2 p-2" data-grid role="list" aria-label={`${d.name} panels`}>
            {d.panels.map((p) => (
              <PanelCard key={p.uid} d={d} panel={p} focused={focused === p.uid} state={stateOf(p.uid)} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

const SPAN = ['', 'col-span-1', 'col-span-2', 'col-span-3', 'col-span-4'];

function PanelCard({ d, panel, focused, state }: { d: Dashboard; panel: DashboardPanel; focused: boolean; state: PanelState }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focused && ref.current && !ref.current.contains(document.activeElement)) ref.current.focus();
  }, [focused, panel.w, panel.h]);
  const onKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const i = d.panels.findIndex((p) => p.uid === panel.uid);
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    const next = d.panels[i + step];
    if (next) {
      e.preventDefault();
      reportsStore.focused[d.id] = next.uid;
    }
  };
  return (
    <section
      ref={ref}
      role="listitem"
      tabIndex={0}
      aria-label={`${panel.title} panel, ${panel.w} of 4 columns wide`}
      data-panel={panel.uid}
      onFocus={() => (reportsStore.focused[d.id] = panel.uid)}
      onKeyDown={onKey}
      className={`${SPAN[panel.w]} flex flex-col rounded border bg-panel ${focused ? 'border-accent' : 'border-line'}`}
      style={{ height: panel.h * ROW_PX }}
    >
      <header className="flex items-center gap-1 border-b border-line px-2 py-1">
        <h3 className="truncate text-sm font-medium">{panel.title}</h3>
        {d.editable && <PanelButtons d={d} panel={panel} />}
      </header>
      <div className="min-h-0 flex-1 p-1" data-chart>
        <PanelView panel={panel} range={d.time_range} state={state} />
      </div>
    </section>
  );
}

/** Icons of the panel commands (their labels, 'Move Gauge earlier', are the buttons' names). */
const ICONS: Record<string, string> = {
  'reports.movePanelEarlier': '◀',
  'reports.movePanelLater': '▶',
  'reports.narrowPanel': '−',
  'reports.widenPanel': '+',
  'reports.shorterPanel': '▴',
  'reports.tallerPanel': '▾',
  'reports.panelOptions': '⚙',
  'reports.removePanel': '×',
};

/** A panel's header buttons: the commands placed in 'panel/dashboard', acting on this panel. */
function PanelButtons({ d, panel }: { d: Dashboard; panel: DashboardPanel }) {
  const items = useMenuItems('panel/dashboard', { id: d.id, uid: panel.uid, title: panel.title });
  const { opts } = usePaneCommandContext();
  return (
    <span className="ml-auto flex gap-0.5 text-xs">
      {items.map((e) => (
        <button
          key={e.key}
          type="button"
          className={`rounded px-1 text-muted ${e.commandId === 'reports.removePanel' ? 'hover:text-red-400' : 'hover:text-ink'}`}
          aria-label={e.label}
          title={e.hotkey ? `${e.label} (${e.hotkey})` : e.label}
          disabled={e.disabled}
          onClick={() => runFrom(commands, e.commandId, e.args, 'button', opts)}
        >
          {ICONS[e.commandId] ?? e.label}
        </button>
      ))}
    </span>
  );
}
