import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { commands } from '@/commands/registry';
import { ATTACK_LOCATION_PANEL_IDS, CHART_MODES, GROUP_KEYS, GROUP_KEY_LABELS, type ChartMode, type GroupKey } from '@/api/contracts/reports';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { useSubmit } from '@/ui/use-submit';
import { CsvExportForm } from '@/ui/csv-options-fields';
import { csvExportName } from './exports';
import { getDashboard, patchDashboard, qk, shareDashboard, shareableUsers } from './api';
import { PanelLibrary } from './panel-library';
import { updatePanel } from './panels';
import { reportsStore } from './store';

/** The reports' modals, mounted once: Panel Library, rename, share, panel options, and export progress. */

const run = (id: string, args: Record<string, unknown>) => commands.execute(id, args, 'button').catch(() => undefined);

export function ReportsDialogs() {
  const snap = useSnapshot(reportsStore);
  const lib = snap.library;
  return (
    <>
      <PanelLibrary
        open={!!lib}
        onClose={() => (reportsStore.library = null)}
        enabledIds={lib?.location === 'mitre' ? ATTACK_LOCATION_PANEL_IDS : []}
        onAdd={(p) => {
          const id = lib?.dashboardId;
          reportsStore.library = null;
          if (id) void run('reports.addPanel', { id, kind: p.key });
        }}
      />
      {snap.rename && <RenameDialog key={snap.rename.dashboardId} id={snap.rename.dashboardId} name={snap.rename.name} />}
      {snap.share && <ShareDialog key={snap.share.dashboardId} id={snap.share.dashboardId} />}
      {snap.options && <OptionsDialog key={`${snap.options.dashboardId}:${snap.options.uid}`} id={snap.options.dashboardId} uid={snap.options.uid} />}
      {snap.csv && <CsvDialog key={snap.csv.dashboardId} id={snap.csv.dashboardId} />}
      <ExportProgress />
    </>
  );
}

function RenameDialog({ id, name }: { id: number; name: string }) {
  const [value, setValue] = useState(name);
  const close = () => (reportsStore.rename = null);
  return (
    <Modal open onClose={close} title="Rename Dashboard" size="sm">
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          close();
          void run('reports.renameDashboard', { id, new_name: value });
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-muted">
          Name
          <input autoFocus className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={value} maxLength={120} onChange={(e) => setValue(e.target.value)} />
        </label>
        <div className="flex justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!value.trim()}>
            Rename
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ShareDialog({ id }: { id: number }) {
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ['dashboards', 'share-users'], queryFn: shareableUsers });
  const dash = useQuery({ queryKey: qk.dashboard(id), queryFn: () => getDashboard(id) });
  const [chosen, setChosen] = useState<number[] | null>(null);
  const { busy, error, run } = useSubmit();
  const picked = chosen ?? dash.data?.shared_with.map((u) => u.id) ?? [];
  const close = () => (reportsStore.share = null);
  return (
    <Modal open onClose={close} title="Share Dashboard">
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await shareDashboard(id, picked);
            await qc.invalidateQueries({ queryKey: qk.dashboards });
            close();
          });
        }}
      >
        <fieldset className="flex max-h-64 flex-col gap-1 overflow-auto">
          <legend className="mb-1 text-xs text-muted">Users who may read this dashboard</legend>
          {(users.data?.users ?? []).map((u) => (
            <label key={u.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={picked.includes(u.id)} onChange={(e) => setChosen(e.target.checked ? [...picked, u.id] : picked.filter((x) => x !== u.id))} />
              {u.name} <span className="text-xs text-muted">{u.email}</span>
            </label>
          ))}
        </fieldset>
        {error && <p role="alert" className="text-sm text-red-400">{error}</p>}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function OptionsDialog({ id, uid }: { id: number; uid: string }) {
  const qc = useQueryClient();
  const dash = useQuery({ queryKey: qk.dashboard(id), queryFn: () => getDashboard(id) });
  const panel = dash.data?.panels.find((p) => p.uid === uid);
  const [title, setTitle] = useState('');
  const [mode, setMode] = useState<ChartMode>('blocked');
  const [threshold, setThreshold] = useState(85);
  const [groupBy, setGroupBy] = useState<GroupKey>('action_type');
  const [filterVal, setFilterVal] = useState('');
  useEffect(() => {
    if (!panel) return;
    setTitle(panel.title);
    setMode(panel.options.chartMode);
    setThreshold(panel.options.blockThreshold);
    setGroupBy(panel.options.group_by);
    setFilterVal(panel.options.filterVal);
  }, [panel]);
  const close = () => (reportsStore.options = null);
  return (
    <Modal open onClose={close} title={`Panel Options${panel ? `: ${panel.title}` : ''}`}>
      {!panel ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : (
        <form
          className="flex flex-col gap-2 text-sm"
          onSubmit={async (e) => {
            e.preventDefault();
            const d = dash.data!;
            await patchDashboard(id, { panels: updatePanel(d.panels, uid, { title: title.trim() || panel.title, options: { ...panel.options, chartMode: mode, blockThreshold: threshold, group_by: groupBy, filterVal } }) });
            await qc.invalidateQueries({ queryKey: qk.dashboards });
            close();
          }}
        >
          <label className="flex flex-col gap-1 text-xs text-muted">
            Title
            <input className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted">
            Chart mode
            <select className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={mode} onChange={(e) => setMode(e.target.value as ChartMode)}>
              {CHART_MODES.map((m) => (
                <option key={m} value={m}>
                  {m === 'blocked' ? 'Blocked' : 'Totals'}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted">
            Block threshold (%)
            <input type="number" min={0} max={100} className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={threshold} onChange={(e) => setThreshold(Math.min(100, Math.max(0, Number(e.target.value))))} />
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted">
            Group by
            <select className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupKey)}>
              {GROUP_KEYS.map((k) => (
                <option key={k} value={k}>
                  {GROUP_KEY_LABELS[k]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted">
            Filter jobs by text
            <input className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" value={filterVal} maxLength={200} onChange={(e) => setFilterVal(e.target.value)} />
          </label>
          <div className="flex justify-end gap-2">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary">
              Apply
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** The data export options of a dashboard's CSV (reports.exportCsv with the chosen options). */
function CsvDialog({ id }: { id: number }) {
  const dash = useQuery({ queryKey: qk.dashboard(id), queryFn: () => getDashboard(id) });
  const close = () => (reportsStore.csv = null);
  const d = dash.data;
  return (
    <Modal open onClose={close} title="Export to CSV">
      {dash.isError && <p role="alert" className="text-sm text-red-400">{dash.error instanceof Error ? dash.error.message : 'An error occurred'}</p>}
      {!d ? (
        !dash.isError && <p className="text-sm text-muted">Loading…</p>
      ) : (
        <CsvExportForm
          rows={{ visible: 'Visible (the rows each panel shows)', all: 'All (every row of each panel)' }}
          exportName={csvExportName(d)}
          disabled={d.panels.length === 0}
          onCancel={close}
          onExport={async (options) => {
            await commands.execute('reports.exportCsv', { id, ...options, filename: options.filename || undefined }, 'button');
            close();
          }}
        >
          <p className="text-muted">The figures of the {d.panels.length} panels of {d.name}, one table per panel.</p>
        </CsvExportForm>
      )}
    </Modal>
  );
}

/** Shown once an export has taken a second. */
function ExportProgress() {
  const { progress } = useSnapshot(reportsStore);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!progress) return setShown(false);
    const t = setTimeout(() => setShown(true), 1000);
    return () => clearTimeout(t);
  }, [progress]);
  if (!progress || !shown) return null;
  return (
    <div role="status" className="fixed bottom-4 right-4 z-[1060] rounded border border-line bg-panel px-3 py-2 text-sm shadow-xl">
      {progress.label}… {progress.done} of {progress.total}
      <progress className="ml-2 align-middle" max={progress.total} value={progress.done} />
    </div>
  );
}
