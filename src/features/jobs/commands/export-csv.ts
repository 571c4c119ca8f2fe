import { CSV_SEPARATORS, JOBS_EXPORT_NAME, JOB_ACTIONS_EXPORT_NAME, csvFilename } from '@/api/contracts/jobs';
import { exportCsv, listParams } from '@/features/jobs/api';
import { deliverCsv } from '@/ui/csv-delivery';
import { filterRules, parseJobFilter } from '@/features/jobs/filter-qualifiers';
import type { PaneState } from '@/features/jobs/pane-state';
import { toListRequest } from '@/features/jobs/stored-filter';
import { fail } from './context';

/** CSV export of jobs: which rows, the director's call, delivery, and the result a script gets. */

export type ExportArgs = {
  separator?: keyof typeof CSV_SEPARATORS;
  delivery?: 'download' | 'popup';
  all_events?: 'visible' | 'all';
  regex?: 'double' | 'single';
  filename?: string;
  job_action_report?: boolean;
  /** Without a Jobs pane (scripts): the jobs to export, or the list's filter text to export every match of. */
  job_ids?: number[];
  filter?: string;
  /** `format=csv`: the only export format, accepted so scripts can say it. */
  format?: 'csv';
};

/** What jobs.export gives a script: the file's name, its data rows and its text. */
export interface ExportResult {
  filename: string;
  rows: number;
  csv: string;
}

/** Runs an export of a jobs pane's filter: visible rows (or the job pane's job) or all matches. */
export type ExportChoice = Required<Omit<ExportArgs, 'filename' | 'job_ids' | 'filter' | 'format'>> & Pick<ExportArgs, 'job_ids' | 'filter'> & { filename: string };

/** An export's filter text as the list's query, read by the Jobs pane's parser: free text, and `field:value` words as one rule. */
function filterProps(filter: string): Record<string, unknown> {
  const parsed = parseJobFilter(filter);
  const refused = parsed.problems.filter((p) => !p.includes(' is not a filter word'));
  if (refused.length) throw new Error(`filter: ${refused.join('; ')}`);
  const rules = filterRules(parsed);
  if (!rules.length) return { filterVal: parsed.text };
  return { ...(parsed.text ? { filterVal: parsed.text } : {}), filter: 'adhoc', structuredFilter: JSON.stringify({ rules }) };
}

/** Which rows an export covers: given ids, a filter's every match, the pane's visible rows, or the job pane's job. */
function exportScope(s: PaneState | null, a: ExportChoice): { props: Record<string, unknown>; allEvents: 'visible' | 'all' } {
  if (a.job_ids?.length) return { props: { job_ids: [...new Set(a.job_ids)] }, allEvents: 'visible' };
  if (a.filter !== undefined && s?.kind !== 'jobs') return { props: filterProps(a.filter), allEvents: 'all' };
  if (!s) throw new Error('Focus a Jobs pane, or give job_ids or filter.');
  const props: Record<string, unknown> = s.kind === 'jobs' ? listParams(toListRequest(s.filter, s.vid, null, s.timezoneOffset)) : {};
  for (const k of ['after', 'before', 'selected_jobs[]']) delete props[k];
  for (const [k, v] of Object.entries(props)) if (v === undefined) delete props[k];
  // A job pane exports its own job whatever the rows choice.
  const allEvents = s.kind === 'job' ? 'visible' : a.all_events;
  if (allEvents === 'visible') props.job_ids = s.kind === 'job' ? (s.jobId ? [s.jobId] : []) : s.pageJobs.map((j) => j.id);
  return { props, allEvents };
}

/** Runs an export of given jobs, of a filter, or of a jobs pane's filter: visible rows (or the job pane's job) or all matches. */
export async function runExport(s: PaneState | null, a: ExportChoice): Promise<ExportResult> {
  const { props, allEvents } = exportScope(s, a);
  const filename = csvFilename(a.filename, a.job_action_report ? JOB_ACTIONS_EXPORT_NAME : JOBS_EXPORT_NAME);
  const csv = await exportCsv({ separator: a.separator, delivery: a.delivery, all_events: allEvents, regex: a.regex, filename, props, job_action_report: a.job_action_report }).catch(fail);
  deliverCsv(csv, filename, a.delivery);
  return { filename, rows: csvRowCount(csv), csv };
}

/** Data rows of a CSV text: records after the header, counting quoted line breaks as part of their field. */
export function csvRowCount(csv: string): number {
  let records = 0;
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) records++;
  }
  if (csv.length && !csv.endsWith('\n')) records++;
  return Math.max(0, records - 1);
}

