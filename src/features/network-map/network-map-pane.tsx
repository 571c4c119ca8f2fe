import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { LAYOUT_MODES, RETRIEVE_FAILED, type LayoutMode, type NetworkMap, type Point } from '@/api/contracts/topology';
import { FAIL_COLOUR, MONITOR_STATS_REFRESH_CHOICES, PASS_COLOUR, monitorStatsRefreshMs } from '@/api/contracts/monitors';
import { monitorStatsQuery } from '@/api/monitor-stats';
import { CommandButton } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { focusedJobContext, type FocusedJob } from '@/commands/focused-job';
import { paneContexts } from '@/commands/pane-contexts';
import { WorkbenchContext } from '@/panes/pane-context';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { RefreshSelect } from '@/ui/refresh-select';
import { flash } from '@/ui/toasts';
import { getNetwork, networkQueryKey } from '@/api/network-map';
import { getLayout, layoutQueryKey } from './api';
import { DEVICE_COLOURS, STATUS_COLOURS } from '@/ui/network-map/colours';
import { MapContextMenu, type MenuTarget } from './context-menu';
import { ItemDetails } from './item-details';
import { layoutKeyBuffer } from './layout-keys';
import { jobHighlight, type JobHighlight } from '@/ui/network-map/job-path';
import { layout, positionsOf } from '@/ui/network-map/layouts';
import { MapCanvas, type MapCanvasHandle } from '@/ui/network-map/map-canvas';
import { nextItem, type Direction } from '@/ui/network-map/next-item';
import { MapRegion } from '@/ui/network-map/map-region';
import { menuTargetOf } from './selection';
import { networkMapStore } from './store';
import type { MonitorOverlay } from '@/ui/network-map/monitor-overlay';
import { MonitorPathList } from '@/ui/network-map/monitor-paths';

/** How often the map items are read again while the pane is open. */
const MAP_REFRESH_MS = 30_000;
const run = (id: string) => void commands.execute(id, {}, 'button').catch(() => {});

function Legend() {
  const chip = (colour: string, label: string) => (
    <span className="flex items-center gap-1">
      <span aria-hidden className="inline-block size-2.5 rounded-sm" style={{ background: colour }} />
      {label}
    </span>
  );
  return (
    <div className="flex flex-wrap gap-3 text-xs text-muted" aria-label="Legend">
      {chip(STATUS_COLOURS.online, 'Online')}
      {chip(STATUS_COLOURS.offline, 'Offline')}
      {chip(STATUS_COLOURS.pending, 'Pending')}
      {chip(DEVICE_COLOURS.prevention, 'Device, prevention')}
      {chip(DEVICE_COLOURS.detection, 'Device, detection only')}
    </div>
  );
}

function ModeButtons({ mode }: { mode: LayoutMode }) {
  return (
    <div role="group" aria-label="Layout mode" className="flex overflow-hidden rounded border border-line">
      {LAYOUT_MODES.map((m, i) => (
        <button
          key={m}
          type="button"
          aria-pressed={m === mode}
          title={`Layout: ${m} (L then ${i + 1})`}
          onClick={() => run(`networkMap.layout${m}`)}
          className={`px-2.5 py-1 text-sm ${m === mode ? 'bg-accent font-semibold text-slate-950' : 'bg-raised text-ink hover:bg-line/60'} ${i ? 'border-l border-line' : ''}`}
        >
          {m}
        </button>
      ))}
    </div>
  );
}

/**
 * The job of the most recently focused pane that shows one (a Job pane), while that pane is open: focusing
 * the map itself keeps it, so the operator can look at the highlight.
 */
function useFocusedJob(): FocusedJob | null {
  const workbench = useContext(WorkbenchContext);
  const [job, setJob] = useState<FocusedJob | null>(null);
  useEffect(() => {
    if (!workbench) return undefined;
    const { controller } = workbench;
    const update = () => {
      for (const id of controller.recentPanelIds()) {
        const offered = paneContexts.lookup(focusedJobContext, { kind: '', id });
        if (offered) {
          setJob(offered);
          return;
        }
      }
      setJob(null);
    };
    update();
    const offFocus = controller.subscribe(update);
    const offContexts = paneContexts.subscribe(update);
    return () => {
      offFocus();
      offContexts();
    };
  }, [workbench]);
  return job;
}

/** What the highlight shows, as text (for the keyboard and screen readers). */
function describeHighlight(map: NetworkMap, h: JobHighlight): string {
  const name = (key: string) => {
    const [kind, raw] = key.split('_');
    const id = Number(raw);
    const item = kind === 'node' ? map.nodes.find((n) => n.id === id) : kind === 'zone' ? map.zones.find((z) => z.id === id) : map.devices.find((d) => d.id === id);
    return item?.name ?? key;
  };
  const actors = [...h.actors].map(name).join(', ');
  const path = [...h.path].map(name).join(', ');
  if (!actors) return `Job #${h.jobId}: its actors are not on the map.`;
  return `Job #${h.jobId} ${h.jobName}: actors ${actors}${path ? `; path through ${path}` : ''}`;
}

/** The map, its keyboard (L1..L6 buffer, arrows, Shift+F10 / ContextMenu, Escape) and the context menu. */
function MapView({ map, overlay }: { map: NetworkMap; overlay: MonitorOverlay | null }) {
  const snap = useSnapshot(networkMapStore);
  const focusedJob = useFocusedJob();
  const job = useMemo(() => (focusedJob ? jobHighlight(map, focusedJob) : null), [map, focusedJob]);
  const canvas = useRef<MapCanvasHandle>(null);
  const region = useRef<HTMLDivElement>(null);
  const feedKey = useMemo(() => layoutKeyBuffer(), []);
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  // Lens centres on the item selected when switching to it (or picked with Centre in Lens); selecting
  // another item afterwards does not lay the map out again.
  const [lensFocus, setLensFocus] = useState<string | null>(null);
  useEffect(() => setLensFocus(networkMapStore.selected ?? networkMapStore.focus), [snap.mode, snap.focus]);
  const rects = useMemo(
    () => layout(snap.mode, map, { focus: lensFocus, positions: snap.positions as Record<string, Point> }),
    [snap.mode, map, lensFocus, snap.positions],
  );
  const items = useMemo(() => [...map.nodes.map((n) => `node_${n.id}`), ...map.devices.map((d) => `device_${d.id}`)], [map]);

  useEffect(() => {
    region.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    if (snap.fitRequests) canvas.current?.fit();
  }, [snap.fitRequests]);
  useEffect(() => {
    canvas.current?.fit();
  }, [snap.mode, snap.focus]);

  const closeMenu = useCallback(() => {
    setMenu(null);
    region.current?.focus({ preventScroll: true });
  }, []);
  const openMenu = (key: string, at: Point) => {
    networkMapStore.selected = key;
    setMenu(menuTargetOf(map, key, at));
  };
  const onMoved = (moved: Record<string, Point>) => {
    if (networkMapStore.mode !== 'Tweak') return;
    networkMapStore.positions = { ...positionsOf(rects), ...moved };
    run('networkMap.save');
  };
  const onLens = (key: string) => {
    networkMapStore.focus = key;
    networkMapStore.selected = key;
    run('networkMap.layoutLens');
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (menu || e.ctrlKey || e.metaKey || e.altKey) return;
    const mode = feedKey(e.key);
    if (mode) {
      e.preventDefault();
      void commands.execute(`networkMap.layout${mode}`, {}, 'hotkey').catch(() => {});
      return;
    }
    if (e.key.startsWith('Arrow')) {
      networkMapStore.selected = nextItem(rects, items, networkMapStore.selected, e.key as Direction);
    } else if ((e.key === 'F10' && e.shiftKey) || e.key === 'ContextMenu' || e.key === 'Enter') {
      const key = networkMapStore.selected;
      const at = key ? canvas.current?.clientCenter(key) : null;
      if (key && at) openMenu(key, at);
    } else if (e.key === 'Escape') networkMapStore.selected = null;
    else return;
    e.preventDefault();
  };

  const selectedName = snap.selected ? menuTargetOf(map, snap.selected, { x: 0, y: 0 })?.name ?? map.zones.find((z) => `zone_${z.id}` === snap.selected)?.name : null;
  return (
    <MapRegion ref={region} label="Network map" describedBy="network-map-keys" onKeyDown={onKeyDown}>
      <MapCanvas
        map={map}
        rects={rects}
        selected={snap.selected}
        draggable={snap.mode === 'Tweak'}
        onSelect={(key) => (networkMapStore.selected = key)}
        onContextMenu={openMenu}
        onMoved={onMoved}
        overlay={overlay}
        job={job}
        handle={canvas}
      />
      {job && (
        <p role="status" aria-label="Focused job on the map" className="pointer-events-none absolute bottom-2 left-3 z-10 max-w-[80%] rounded bg-slate-950/80 px-2 py-1 text-xs text-amber-300">
          {describeHighlight(map, job)}
        </p>
      )}
      <p id="network-map-keys" className="pointer-events-none absolute right-3 top-2 z-10 rounded bg-slate-950/70 px-2 py-1 text-xs text-muted">
        {snap.mode === 'Tweak' ? 'Drag actors, devices or zones to move them. ' : ''}Arrows select · Shift+F10 menu · L then 1–6 layout
      </p>
      <p role="status" className="pointer-events-none absolute left-3 top-2 z-10 rounded bg-slate-950/70 px-2 py-1 text-xs">
        {selectedName ? `Selected: ${selectedName}` : 'Nothing selected'}
      </p>
      {snap.selected && <ItemDetails map={map} selected={snap.selected} />}
      {menu && <MapContextMenu target={menu} onClose={closeMenu} onLens={onLens} />}
    </MapRegion>
  );
}

/** The aeda mode's header: the monitor counts, and every path as text (what the map draws, for the keyboard and screen readers). */
function MonitorStatsBar({ overlay, stats, error }: { overlay: MonitorOverlay | null; stats: { monitor_count: number; unique_count: number; alert_count: number } | undefined; error: string | null }) {
  if (error) return <p role="alert" className="text-sm text-red-300">Could not load the monitor stats: {error}</p>;
  if (!overlay || !stats) return <p className="text-sm text-muted">Loading the monitor stats…</p>;
  return (
    <section aria-label="Monitor stats on the map" className="flex flex-col gap-1 text-xs">
      <div className="flex flex-wrap gap-4">
        <span>
          <b className="text-sm">{stats.monitor_count}</b> Active Security Monitors
        </span>
        <span>
          <b className="text-sm">{stats.unique_count}</b> Unique Checks
        </span>
        <span>
          <b className="text-sm" style={{ color: stats.alert_count > 0 ? FAIL_COLOUR : PASS_COLOUR }}>
            {stats.alert_count}
          </b>{' '}
          Active Security Alerts
        </span>
      </div>
      <MonitorPathList overlay={overlay} />
    </section>
  );
}

/**
 * JOB-023, JOB-025, JOB-026, JOB-110: the network map of zones, actors and devices. Its chart mode is
 * the URL's `chart` (default, or aeda: the monitor stats drawn on the map, polled like /monitor at the
 * URL's `refresh` interval, JOB-093).
 */
export function NetworkMapPane({ params, setParams }: PaneProps) {
  const aeda = params.chart === 'aeda';
  const refreshMs = monitorStatsRefreshMs(params.refresh);
  const monitorStats = useQuery({ ...monitorStatsQuery(refreshMs), enabled: aeda });
  const overlay = aeda ? (monitorStats.data?.map_data ?? null) : null;
  const snap = useSnapshot(networkMapStore);
  const queryClient = useQueryClient();
  // Actor statuses change: the map is read again every 30 s (a background call).
  const network = useQuery({ queryKey: networkQueryKey, queryFn: () => getNetwork(queryClient.getQueryData(networkQueryKey) !== undefined), refetchInterval: MAP_REFRESH_MS });
  const saved = useQuery({ queryKey: layoutQueryKey, queryFn: getLayout, retry: false, staleTime: Infinity });
  const restored = useRef(false);

  useEffect(() => {
    if (restored.current) return;
    if (saved.data) {
      restored.current = true;
      networkMapStore.mode = saved.data.mode;
      networkMapStore.positions = saved.data.positions;
    } else if (saved.isError) {
      restored.current = true;
      flash('alert', RETRIEVE_FAILED);
    }
  }, [saved.data, saved.isError]);

  const map = network.data;
  const empty = map && !map.zones.length && !map.nodes.length && !map.devices.length;
  return (
    <div className="flex h-full flex-col gap-2 p-3">
      <header className="flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold">Network Map</h2>
        {map && (
          <span className="text-xs text-muted">
            {map.zones.length} zones · {map.nodes.length} actors · {map.devices.length} devices
          </span>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {aeda && <RefreshSelect choices={MONITOR_STATS_REFRESH_CHOICES} valueMs={refreshMs} onChange={(s) => setParams({ ...params, refresh: String(s) })} />}
          {aeda ? <CommandButton command="networkMap.chartDefault">Hide Monitor Stats</CommandButton> : <CommandButton command="networkMap.chartAeda">Monitor Stats</CommandButton>}
          <ModeButtons mode={snap.mode} />
          <Button onClick={() => run('networkMap.fit')}>Fit to view</Button>
          <Button onClick={() => run('networkMap.save')}>Save layout</Button>
        </div>
      </header>
      <Legend />
      {aeda && <MonitorStatsBar overlay={overlay} stats={monitorStats.data?.stats} error={monitorStats.isError ? monitorStats.error.message : null} />}
      {(network.isPending || saved.isPending) && <p className="text-muted">Loading the network map…</p>}
      {network.isError && (
        <div role="alert" className="flex items-center gap-2 rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
          {network.error.message}
          <Button onClick={() => void network.refetch()}>Retry</Button>
        </div>
      )}
      {empty && <p className="text-muted">No zones, actors or devices yet</p>}
      {map && !empty && !saved.isPending && <MapView map={map} overlay={overlay} />}
    </div>
  );
}
