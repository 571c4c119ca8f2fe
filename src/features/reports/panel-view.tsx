import { commands } from '@/commands/registry';
import type { DashboardPanel } from '@/api/contracts/reports';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { formatFilterRange } from '@/api/contracts/jobs';
import type { PanelAnswer } from '@/api/contracts/report-table';
import { panelClock, panelQuery, rulesFor } from './panel-data';
import type { ChartSelection } from './charts/chart-frame';
import { BulletChart, ForceFieldChart, GaugeChart, PieChart } from './charts/svg-charts';
import { RadarChart } from './charts/radar-chart';
import { TreeMapChart } from './charts/tree-map-chart';
import { BarChart, BlockRateChart, LineChart } from './charts/uplot-charts';

/** A click on a segment opens the matching jobs (jobs.showMatching) over the segment's or the panel's time range. */
function openJobs(panel: DashboardPanel, range: { start?: string; end?: string }, s: ChartSelection) {
  const start = s.start ?? range.start;
  const end = s.end ?? range.end;
  const rules = rulesFor(panel, s);
  void commands
    .execute('jobs.showMatching', { filter_range: formatFilterRange(start ? new Date(start) : null, end ? new Date(end) : null), ...(rules.length ? { rules: JSON.stringify(rules) } : {}), filter_value: panel.options.filterVal || undefined }, 'button')
    .catch(() => undefined);
}

/** What a panel shows: its answer from the dashboard's one call (POST /reports/panels.json), or why there is none. */
export interface PanelState {
  answer: PanelAnswer | undefined;
  error: unknown;
}

export function PanelView({ panel, range, state }: { panel: DashboardPanel; range: TimeRangeConfig; state: PanelState }) {
  if (state.error) return <p className="p-2 text-xs text-red-400">{state.error instanceof Error ? state.error.message : 'An error occurred'}</p>;
  if (!state.answer) return <p className="p-2 text-xs text-muted">Loading…</p>;
  if ('error' in state.answer) return <p className="p-2 text-xs text-red-400">{state.answer.error.message}</p>;
  const d = state.answer;
  // The panel's range as its query resolved it (per minute), for the jobs a click opens.
  const params = panelQuery(panel, range, panelClock());
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
