import { useQuery } from '@tanstack/react-query';
import { commands } from '@/commands/registry';
import type { DashboardPanel, ResultMetric } from '@/api/contracts/reports';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { formatFilterRange } from '@/api/contracts/jobs';
import type { FilterNode } from '@/api/contracts/filters';
import { qk } from './api';
import { loadPanelData, panelClock, panelQuery, sourceOf } from './panel-data';
import type { ChartSelection } from './charts/chart-frame';
import { BulletChart, ForceFieldChart, GaugeChart, PieChart } from './charts/svg-charts';
import { RadarChart } from './charts/radar-chart';
import { TreeMapChart } from './charts/tree-map-chart';
import { BarChart, BlockRateChart, LineChart } from './charts/uplot-charts';

/** Job action conditions the jobs filter can express for a clicked key or metric. */
function rulesFor(panel: DashboardPanel, s: ChartSelection): FilterNode[] {
  const conds: FilterNode[] = [];
  if (s.key && panel.options.group_by === 'action_type') conds.push({ match_object: 'job_action', match_field: 'action_type', operator: 'in', value: [s.key] });
  if (s.key && panel.options.group_by === 'action' && s.label) conds.push({ match_object: 'job_action', match_field: 'name', operator: 'equals', value: s.label });
  const missed: (ResultMetric | 'total' | undefined)[] = ['missed', 'failed'];
  if (missed.includes(s.metric)) conds.push({ match_object: 'job_action', match_field: 'events', operator: 'in', value: '0' });
  return conds.length ? [{ operator: 'or', conditions: [{ operator: 'and', conditions: conds }] }] : [];
}

/** A click on a segment opens the matching jobs (jobs.showMatching) over the segment's or the panel's time range. */
function openJobs(panel: DashboardPanel, range: { start?: string; end?: string }, s: ChartSelection) {
  const start = s.start ?? range.start;
  const end = s.end ?? range.end;
  const rules = rulesFor(panel, s);
  void commands
    .execute('jobs.showMatching', { filter_range: formatFilterRange(start ? new Date(start) : null, end ? new Date(end) : null), ...(rules.length ? { rules: JSON.stringify(rules) } : {}), filter_value: panel.options.filterVal || undefined }, 'button')
    .catch(() => undefined);
}

export function PanelView({ panel, range }: { panel: DashboardPanel; range: TimeRangeConfig }) {
  // Relative ranges are resolved per minute, so a refetch a few seconds later (or an export) reuses the cache.
  const params = panelQuery(panel, range, panelClock());
  const q = useQuery({ queryKey: qk.panel(sourceOf(panel.kind), params), queryFn: () => loadPanelData(panel, params), refetchInterval: 60_000 });
  if (q.isPending) return <p className="p-2 text-xs text-muted">Loading…</p>;
  if (q.isError) return <p className="p-2 text-xs text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>;
  const d = q.data;
  const select = (s: ChartSelection) => openJobs(panel, { start: params.start as string, end: params.end as string }, s);
  const { chartMode, blockThreshold } = panel.options;
  switch (panel.kind) {
    case 'bullet':
      return d.type === 'results' ? <BulletChart totals={d.answer.totals} threshold={blockThreshold} onSelect={select} /> : null;
    case 'gauge':
      return d.type === 'results' ? <GaugeChart totals={d.answer.totals} mode={chartMode} threshold={blockThreshold} onSelect={select} /> : null;
    case 'pie':
      return d.type === 'results' ? <PieChart totals={d.answer.totals} onSelect={select} /> : null;
    case 'bar':
      return d.type === 'results' ? <BarChart rows={d.answer.rows} onSelect={select} /> : null;
    case 'force_field':
      return d.type === 'results' ? <ForceFieldChart rows={d.answer.rows} onSelect={select} /> : null;
    case 'tree_map':
      return d.type === 'tree' ? <TreeMapChart rows={d.answer.rows} onSelect={select} /> : null;
    case 'radar':
      return d.type === 'taam' ? (
        <RadarChart data={d.answer.mitre_taam_data} mode={chartMode} threshold={blockThreshold} start={d.answer.start} end={d.answer.end} onOpen={(url) => void commands.execute('pane.openUrl', { url }, 'button').catch(() => undefined)} />
      ) : null;
    case 'line':
      return d.type === 'series' ? <LineChart series={d.answer} onSelect={select} /> : null;
    case 'block_rate':
      return d.type === 'series' ? <BlockRateChart series={d.answer} threshold={blockThreshold} onSelect={select} /> : null;
  }
}
