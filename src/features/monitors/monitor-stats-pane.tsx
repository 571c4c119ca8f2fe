import { useQuery } from '@tanstack/react-query';
import { FAIL_COLOUR as FAIL, MONITOR_STATS_REFRESH_CHOICES, PASS_COLOUR as PASS, monitorStatsRefreshMs, type MonitorPath, type MonitorStatsAnswer } from '@/api/contracts/monitors';
import { monitorStatsQuery } from '@/api/monitor-stats';
import { CommandButton } from '@/commands/command-menu';
import type { PaneProps } from '@/panes/types';
import { RefreshSelect } from '@/ui/refresh-select';


/** Zones placed on a circle; paths between them (alert paths red, green paths green). */
function ZoneMap({ data }: { data: MonitorStatsAnswer['map_data'] }) {
  const zoneIds = new Map<string, string>();
  const add = (id: number | null, name: string) => zoneIds.set(String(id ?? 'none'), name);
  for (const p of [...data.alert_paths, ...data.green_paths]) {
    add(p.source_zone_id, p.source_zone);
    add(p.target_zone_id, p.target_zone);
  }
  for (const z of data.zone_stats) add(z.zone_id, z.name);
  const zones = [...zoneIds.entries()];
  const size = 520;
  const r = 190;
  const pos = new Map(zones.map(([id], i) => [id, { x: size / 2 + r * Math.cos((2 * Math.PI * i) / zones.length - Math.PI / 2), y: size / 2 + r * Math.sin((2 * Math.PI * i) / zones.length - Math.PI / 2) }]));
  const line = (p: MonitorPath, colour: string, kind: string) => {
    const a = pos.get(String(p.source_zone_id ?? 'none'));
    const b = pos.get(String(p.target_zone_id ?? 'none'));
    if (!a || !b) return null;
    const title = `${kind}: ${p.source_zone} → ${p.target_zone}, ${p.count} step${p.count === 1 ? '' : 's'} (${p.monitors.join(', ')})`;
    if (a === b) return <circle key={`${kind}${p.source_zone_id}`} cx={a.x} cy={a.y - 38} r={14} fill="none" stroke={colour} strokeWidth={2 + Math.min(p.count, 6)} aria-label={title}><title>{title}</title></circle>;
    return (
      <line key={`${kind}${p.source_zone_id}-${p.target_zone_id}`} x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={colour} strokeWidth={2 + Math.min(p.count, 6)} strokeOpacity={0.8} aria-label={title}>
        <title>{title}</title>
      </line>
    );
  };
  if (!zones.length) return <p className="text-sm text-muted">No monitor has been judged yet, so there are no paths to draw.</p>;
  return (
    <svg viewBox={`0 0 ${size} ${size}`} className="h-auto w-full max-w-[560px]" role="img" aria-label="Monitor paths between zones">
      {data.green_paths.map((p) => line(p, PASS, 'Green path'))}
      {data.alert_paths.map((p) => line(p, FAIL, 'Alert path'))}
      {zones.map(([id, name]) => {
        const p = pos.get(id);
        const stat = data.zone_stats.find((z) => String(z.zone_id) === id);
        if (!p) return null;
        return (
          <g key={id} transform={`translate(${p.x}, ${p.y})`}>
            <rect x={-62} y={-22} width={124} height={44} rx={6} fill="#1e293b" stroke={stat && stat.failed > 0 ? FAIL : '#475569'} />
            <text textAnchor="middle" y={-4} className="fill-slate-100 text-[11px]">
              {name.length > 20 ? `${name.slice(0, 19)}…` : name}
            </text>
            {stat && (
              <text textAnchor="middle" y={13} className="text-[10px]">
                <tspan fill={PASS}>{stat.passed} pass</tspan> <tspan fill={FAIL}>{stat.failed} fail</tspan>
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Monitor Stats (/monitor, JOB-028, JOB-045, JOB-093): active security monitors, unique checks and
 * active security alerts, and the map of alert paths and green paths between zones, polled at the
 * refresh interval the URL gives (`refresh`, seconds; 30 s by default).
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
    <div className="flex h-full min-h-0 flex-col gap-4 overflow-auto p-4" data-testid="monitor-stats">
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
      {stats.isLoading ? <p className="text-sm text-muted">Loading…</p> : stats.data && <ZoneMap data={stats.data.map_data} />}
      <p className="text-xs text-muted">
        <span style={{ color: FAIL }}>━</span> alert path (a step failed in the latest run) · <span style={{ color: PASS }}>━</span> green path (every step passed)
      </p>
    </div>
  );
}
