import { useQuery } from '@tanstack/react-query';
import { FAIL_COLOUR as FAIL, MONITOR_STATS_REFRESH_CHOICES, PASS_COLOUR as PASS, monitorStatsRefreshMs } from '@/api/contracts/monitors';
import { monitorStatsQuery } from '@/api/monitor-stats';
import { CommandButton } from '@/commands/command-menu';
import type { PaneProps } from '@/panes/types';
import { MonitorMap } from '@/ui/network-map/monitor-map';
import { MonitorPathList } from '@/ui/network-map/monitor-paths';
import { RefreshSelect } from '@/ui/refresh-select';

/**
 * Monitor Stats (/monitor, JOB-028, JOB-045, JOB-093): active security monitors, unique checks and
 * active security alerts, drawn on the network map (alert paths and green paths between zones, zone
 * stats on the zone boxes; src/ui/network-map), polled at the refresh interval the URL gives
 * (`refresh`, seconds; 30 s by default).
 */
export function MonitorStatsPane({ params, setParams }: PaneProps) {
  const refreshMs = monitorStatsRefreshMs(params.refresh);
  const stats = useQuery(monitorStatsQuery(refreshMs));
  const s = stats.data?.stats;
  const card = (label: string, value: number | undefined, tone: string) => (
    <div className="flex flex-col rounded border border-line bg-raised px-4 py-3">
      <span className={`text-3xl font-semibold ${tone}`}>{value ?? '–'}</span>
      <span className="text-xs text-muted">{label}</span>
    </div>
  );
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 overflow-auto p-4" data-testid="monitor-stats">
      <header className="flex items-center gap-2">
        <h2 className="flex-1 text-base font-semibold">Monitor Stats</h2>
        <RefreshSelect choices={MONITOR_STATS_REFRESH_CHOICES} valueMs={refreshMs} onChange={(s) => setParams({ ...params, refresh: String(s) })} />
        <CommandButton command="networkMap.chartAeda">Show on Network Map</CommandButton>
      </header>
      {stats.isError && <p className="text-sm text-red-300">Could not load the monitor stats: {stats.error.message}</p>}
      <div className="grid max-w-2xl grid-cols-3 gap-3">
        {card('Active Security Monitors', s?.monitor_count, 'text-ink')}
        {card('Unique Checks', s?.unique_count, 'text-ink')}
        {card('Active Security Alerts', s?.alert_count, s && s.alert_count > 0 ? 'text-red-400' : 'text-emerald-300')}
      </div>
      <p className="text-xs text-muted">
        <span style={{ color: FAIL }}>━</span> alert path (a step failed in the latest run) · <span style={{ color: PASS }}>━</span> green path (every step passed) · a zone's
        box shows its pass and fail counts
      </p>
      {stats.isLoading ? <p className="text-sm text-muted">Loading…</p> : stats.data && (
        <>
          <MonitorPathList overlay={stats.data.map_data} />
          <MonitorMap overlay={stats.data.map_data} />
        </>
      )}
    </div>
  );
}
