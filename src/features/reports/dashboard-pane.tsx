import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { commands } from '@/commands/registry';
import type { Dashboard, DashboardPanel } from '@/api/contracts/reports';
import type { PaneProps } from '@/panes/types';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { Button } from '@/ui/button';
import { TimeRangePicker } from '@/ui/time-range-picker';
import { getDashboard, patchDashboard, qk } from './api';
import { PanelView } from './panel-view';
import { reportsStore } from './store';

/** One dashboard: its time range, its toolbar (commands as buttons) and the grid of panels. */

const run = (id: string, args: Record<string, unknown> = {}) => commands.execute(id, args, 'button').catch(() => undefined);
const ROW_PX = 230;

export function DashboardPane({ params }: PaneProps) {
  const id = Number(params.id);
  const q = useQuery({ queryKey: qk.dashboard(id), queryFn: () => getDashboard(id), enabled: id > 0 });
  if (!(id > 0)) return <p className="p-4 text-sm text-red-400">This dashboard address has no valid id.</p>;
  if (q.isPending) return <p className="p-4 text-sm text-muted">Loading dashboard…</p>;
  if (q.isError) return <p className="p-4 text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>;
  return <DashboardView d={q.data} />;
}

function DashboardView({ d }: { d: Dashboard }) {
  const qc = useQueryClient();
  const snap = useSnapshot(reportsStore);
  const focused = snap.focused[d.id] ?? null;
  const setRange = async (time_range: TimeRangeConfig) => {
    if (!d.editable) return;
    await patchDashboard(d.id, { time_range });
    await qc.invalidateQueries({ queryKey: qk.dashboards });
  };
  return (
    <div className="flex h-full flex-col overflow-auto" data-dashboard={d.id}>
      <div className="sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b border-line bg-panel px-3 py-2">
        <h2 className="mr-2 text-base font-semibold">{d.name}</h2>
        {!d.editable && <span className="text-xs text-muted">Shared by {d.owner.name} (read only)</span>}
        <TimeRangePicker value={d.time_range} onChange={(r) => void setRange(r)} />
        <div className="ml-auto flex flex-wrap gap-1" role="toolbar" aria-label="Dashboard actions">
          {d.editable && <Button onClick={() => void run('reports.addPanel', { id: d.id })}>Add Panel</Button>}
          <Button onClick={() => void run('reports.exportPdf', { id: d.id })}>Export PDF</Button>
          <Button onClick={() => void run('reports.exportPng', { id: d.id })}>Export Image</Button>
          <Button onClick={() => void run('reports.exportCsv', { id: d.id })}>Export CSV</Button>
          <Button onClick={() => void run('reports.duplicateDashboard', { id: d.id })}>Duplicate</Button>
          {d.editable && <Button onClick={() => void run('reports.shareDashboard', { id: d.id })}>Share</Button>}
        </div>
      </div>
      {d.panels.length === 0 ? (
        <p className="p-4 text-sm text-muted">This dashboard has no panels yet. Press A or choose Add Panel to pick one from the Panel Library.</p>
      ) : (
        <div className="grid grid-cols-4 gap-2 p-2" data-grid role="list" aria-label={`${d.name} panels`}>
          {d.panels.map((p) => (
            <PanelCard key={p.uid} d={d} panel={p} focused={focused === p.uid} />
          ))}
        </div>
      )}
    </div>
  );
}

const SPAN = ['', 'col-span-1', 'col-span-2', 'col-span-3', 'col-span-4'];

function PanelCard({ d, panel, focused }: { d: Dashboard; panel: DashboardPanel; focused: boolean }) {
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
        {d.editable && (
          <span className="ml-auto flex gap-0.5 text-xs">
            <button type="button" className="rounded px-1 text-muted hover:text-ink" aria-label={`Move ${panel.title} earlier`} onClick={() => void focusThen(d, panel, 'reports.movePanelEarlier')}>
              ◀
            </button>
            <button type="button" className="rounded px-1 text-muted hover:text-ink" aria-label={`Move ${panel.title} later`} onClick={() => void focusThen(d, panel, 'reports.movePanelLater')}>
              ▶
            </button>
            <button type="button" className="rounded px-1 text-muted hover:text-ink" aria-label={`Narrow ${panel.title}`} onClick={() => void focusThen(d, panel, 'reports.narrowPanel')}>
              −
            </button>
            <button type="button" className="rounded px-1 text-muted hover:text-ink" aria-label={`Widen ${panel.title}`} onClick={() => void focusThen(d, panel, 'reports.widenPanel')}>
              +
            </button>
            <button type="button" className="rounded px-1 text-muted hover:text-ink" aria-label={`Options of ${panel.title}`} onClick={() => void focusThen(d, panel, 'reports.panelOptions')}>
              ⚙
            </button>
            <button type="button" className="rounded px-1 text-muted hover:text-red-400" aria-label={`Remove ${panel.title}`} onClick={() => void focusThen(d, panel, 'reports.removePanel')}>
              ×
            </button>
          </span>
        )}
      </header>
      <div className="min-h-0 flex-1 p-1" data-chart>
        <PanelView panel={panel} range={d.time_range} />
      </div>
    </section>
  );
}

/** Buttons act on their own panel: focus it, then run the command (which acts on the focused panel). */
function focusThen(d: Dashboard, panel: DashboardPanel, id: string) {
  reportsStore.focused[d.id] = panel.uid;
  return run(id, { id: d.id });
}
