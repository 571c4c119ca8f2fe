import { proxy, ref, subscribe } from 'valtio';
import type { JobAction, JobDetail, JobListItem, JobStep } from '@/api/contracts/jobs';
import { filterStorageKey, loadFilter, saveFilter, type StoredFilter } from './stored-filter';
import { type JobStatus } from '@/api/contracts/vocabulary';

/**
 * The state of each open jobs pane (`jobs:{vid}`) and job pane (`job:{id}`): the rows on screen, the
 * focused row, the selection and the filter. Components write it, commands read it, so a hotkey, the
 * palette, a menu and a button act on the same rows.
 */

export type RowRef =
  | { kind: 'job'; key: string; level: number; parentKey: null; jobId: number; job: JobListItem; expanded: boolean }
  | { kind: 'step'; key: string; level: number; parentKey: string | null; jobId: number; step: JobStep; expanded: boolean }
  | { kind: 'action'; key: string; level: number; parentKey: string; jobId: number; stepId: number; action: JobAction }
  | { kind: 'note'; key: string; level: number; parentKey: string | null; text: string; tone: 'muted' | 'error' };

export interface PaneState {
  key: string;
  kind: 'jobs' | 'job';
  vid: string;
  jobId: number | null;
  filter: StoredFilter;
  /** Keyset cursor of the page shown (after = next page, before = previous page). */
  cursor: { after?: string; before?: string } | null;
  activeKey: string | null;
  rows: readonly RowRef[];
  /** Jobs of the page shown (jobs pane) or the job (job pane). */
  pageJobs: readonly JobListItem[];
  job: JobDetail | null;
  totalShown: number;
  /** Cursors of the page shown, from the last list answer. */
  pageStart: string | null;
  pageEnd: string | null;
  /** Pages in the (possibly estimated) filtered total. */
  pageCount: number;
  /** Bumped to ask the pane to refetch and restart polling. */
  refreshTick: number;
  /** Bumped to ask the pane to focus its filter box. */
  focusFilterTick: number;
  /** The filter panel (page filters and rule builder): open, and ticks the filter commands bump. */
  panelOpen: boolean;
  panelFocusTick: number;
  panelApplyTick: number;
  /** The panel's filter was supplied (a saved filter applied): it is not written to browser storage. */
  panelSupplied: boolean;
  /** Minutes east of UTC of the filter source (GET {filterSrc}), where the page filter's days start; null until known. */
  timezoneOffset: number | null;
  /** The job action whose evidence panel is open (its id and name), or null. */
  evidence: { id: number; name: string } | null;
  /** Bumped to move the focus into the evidence panel. */
  evidenceFocusTick: number;
  /** A job row to focus once the list shows it (from the URL's `job`), or null. */
  wantedJob: number | null;
}

const states = new Map<string, PaneState>();
/** The user whose stored filter a jobs pane state holds (another user signing in gets their own). */
const owners = new Map<string, string>();

export const jobsPaneKey = (vid: string) => `jobs:${vid}`;
export const jobPaneKey = (id: number | string) => `job:${id}`;

export function paneStateKey(pane: { kind: string; params: Record<string, string> } | null): string | null {
  if (!pane) return null;
  if (pane.kind === 'jobs') return jobsPaneKey(pane.params.vid ?? '');
  if (pane.kind === 'job') return jobPaneKey(pane.params.id ?? '');
  return null;
}

export function findPaneState(pane: { kind: string; params: Record<string, string> } | null): PaneState | null {
  const key = paneStateKey(pane);
  return key ? (states.get(key) ?? null) : null;
}

function create(key: string, kind: 'jobs' | 'job', vid: string, jobId: number | null, filter: StoredFilter): PaneState {
  const s = proxy<PaneState>({
    key,
    kind,
    vid,
    jobId,
    filter,
    cursor: null,
    activeKey: null,
    rows: ref([]),
    pageJobs: ref([]),
    job: null,
    totalShown: 0,
    pageStart: null,
    pageEnd: null,
    pageCount: 1,
    refreshTick: 0,
    focusFilterTick: 0,
    panelOpen: false,
    panelFocusTick: 0,
    panelApplyTick: 0,
    panelSupplied: false,
    timezoneOffset: null,
    evidence: null,
    evidenceFocusTick: 0,
    wantedJob: null,
  });
  states.set(key, s);
  return s;
}

/** The state of a jobs pane; its filter is read from and saved to browser storage for this user. */
export function jobsPaneState(vid: string, userId: number | string): PaneState {
  const key = jobsPaneKey(vid);
  const existing = states.get(key);
  if (existing && owners.get(key) === String(userId)) return existing;
  owners.set(key, String(userId));
  const storageKey = filterStorageKey(userId, vid);
  const s = create(key, 'jobs', vid, null, loadFilter(storageKey));
  subscribe(s.filter, persistFilter(s, storageKey));
  return s;
}

type PanelFilter = Pick<StoredFilter['structured_filter'], 'rules' | 'page'>;
const panelOf = (f: StoredFilter): PanelFilter => JSON.parse(JSON.stringify({ rules: f.structured_filter.rules, page: f.structured_filter.page })) as PanelFilter;

/**
 * Writes the filter to browser storage on each change; while the panel's filter is supplied (a saved
 * filter), the rules and page values written stay those the user last applied (section 2: the filter
 * persists to local storage unless a structured filter is supplied).
 */
function persistFilter(s: PaneState, storageKey: string): () => void {
  let kept = panelOf(s.filter);
  return () => {
    if (!s.panelSupplied) kept = panelOf(s.filter);
    saveFilter(storageKey, { ...s.filter, structured_filter: { ...s.filter.structured_filter, ...kept } });
  };
}

function setPanelFilter(s: PaneState, b: PanelFilter, supplied: boolean): void {
  s.panelSupplied = supplied;
  changeFilter(s, (f) => {
    f.structured_filter.rules = b.rules;
    f.structured_filter.page = b.page;
  });
}

/** Applies the filter panel's rules and page values the user set (Update Filter, Reset Filter, Clear Filter). */
export const applyPanelFilter = (s: PaneState, b: PanelFilter): void => setPanelFilter(s, b, false);

/** Applies a supplied structured filter (a saved filter): shown and used, not written to browser storage. */
export function supplyPanelFilter(s: PaneState, b: PanelFilter): void {
  s.panelOpen = true;
  setPanelFilter(s, b, true);
}

export function jobPaneState(id: number): PaneState {
  const key = jobPaneKey(id);
  return states.get(key) ?? create(key, 'job', '', id, loadFilter(''));
}

/** Forgets every pane state (tests, sign-out). */
export function resetPaneStates(): void {
  states.clear();
  owners.clear();
}

// ---------------------------------------------------------------------------------------------
// Row helpers shared by the panes and the commands

export const activeRow = (s: PaneState): RowRef | null => s.rows.find((r) => r.key === s.activeKey) ?? null;

export function moveActive(s: PaneState, step: 1 | -1): void {
  const rows = s.rows.filter((r) => r.kind !== 'note');
  if (!rows.length) return;
  const i = rows.findIndex((r) => r.key === s.activeKey);
  const next = i < 0 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, i + step));
  s.activeKey = rows[next]!.key;
}

/** The job a row belongs to. */
export function rowJobId(r: RowRef | null): number | null {
  if (!r) return null;
  return r.kind === 'note' ? null : r.jobId;
}

/** The status of a job on screen (list row or the job pane's job). */
export function jobStatusOf(s: PaneState, jobId: number): JobStatus | null {
  if (s.job?.id === jobId) return s.job.status;
  return s.pageJobs.find((j) => j.id === jobId)?.job_status ?? null;
}

export function toggleSelected(s: PaneState, jobId: number, on?: boolean): void {
  const has = s.filter.selected_jobs.includes(jobId);
  const want = on ?? !has;
  if (want && !has) s.filter.selected_jobs.push(jobId);
  if (!want && has) s.filter.selected_jobs.splice(s.filter.selected_jobs.indexOf(jobId), 1);
}

/** Select-all is checked only when every listed job is selected (JOB-014). */
export const allListedSelected = (listed: readonly { id: number }[], selected: readonly number[]) => listed.length > 0 && listed.every((j) => selected.includes(j.id));

export function toggleSelectAll(s: PaneState): void {
  const listed = s.pageJobs;
  if (allListedSelected(listed, s.filter.selected_jobs)) s.filter.selected_jobs = s.filter.selected_jobs.filter((id) => !listed.some((j) => j.id === id));
  else for (const j of listed) toggleSelected(s, j.id, true);
}

/** Jobs a multi-job operation works on: the selection, else the focused row's job. */
export function targetJobs(s: PaneState): number[] {
  if (s.kind === 'jobs' && s.filter.selected_jobs.length) return [...s.filter.selected_jobs];
  const id = s.kind === 'job' ? s.jobId : rowJobId(activeRow(s));
  return id === null ? [] : [id];
}

/** Publishes the rows on screen (for the commands); cheap to call on every render. */
export function setPageJobs(s: PaneState, jobs: readonly JobListItem[]): void {
  if (s.pageJobs !== jobs) s.pageJobs = ref(jobs as JobListItem[]);
}

const sameRows = (a: readonly RowRef[], b: readonly RowRef[]) =>
  a.length === b.length && a.every((r, i) => {
    const o = b[i]!;
    if (r.key !== o.key) return false;
    if (r.kind === 'job' && o.kind === 'job') return r.job === o.job && r.expanded === o.expanded;
    if (r.kind === 'step' && o.kind === 'step') return r.step === o.step && r.expanded === o.expanded;
    if (r.kind === 'action' && o.kind === 'action') return r.action === o.action;
    return r.kind === 'note' && o.kind === 'note' && r.text === o.text;
  });

export const setRows = (s: PaneState, rows: RowRef[]) => {
  if (sameRows(s.rows, rows)) return;
  s.rows = ref(rows);
  if (s.activeKey !== null && !rows.some((r) => r.key === s.activeKey)) {
    // The focused row went away (collapsed, deleted, paged): focus its parent, else the first row.
    const parent = s.activeKey.split('>').slice(0, -1).join('>');
    s.activeKey = rows.some((r) => r.key === parent) ? parent : (rows.find((r) => r.kind !== 'note')?.key ?? null);
  }
};

/** The job a jobs pane's URL names (`job`): the focused row's job, or the one it waits to show. */
export const urlJob = (s: PaneState): number | null => s.wantedJob ?? rowJobId(activeRow(s));

/** Focuses the job row the URL asked for once the rows show it; `settled` (a real answer, not a placeholder) without it gives up. */
export function focusWantedJob(s: PaneState, settled: boolean): void {
  if (s.wantedJob === null) return;
  const key = `job:${s.wantedJob}`;
  if (s.rows.some((r) => r.key === key)) s.activeKey = key;
  else if (!settled) return;
  s.wantedJob = null;
}

/** Moves to a one-based page: by keyset cursor when it is the next or previous page, else by number. */
export function goToPage(s: PaneState, page: number): void {
  const current = s.filter.page_number;
  const target = Math.max(1, Math.min(page, Math.max(1, s.pageCount)));
  if (target === current) return;
  if (target === 1) s.cursor = null;
  else if (target === current + 1 && s.pageEnd) s.cursor = { after: s.pageEnd };
  else if (target === current - 1 && s.pageStart) s.cursor = { before: s.pageStart };
  else s.cursor = null;
  s.filter.page_number = target;
}

/** A change of filter, sort or page size starts again at page 1. */
export function changeFilter(s: PaneState, change: (f: StoredFilter) => void): void {
  change(s.filter);
  s.filter.page_number = 1;
  s.cursor = null;
}
