/**
 * The jobs pane: the job list's tree grid with its filter box, pager, sort headers, filter panel and
 * evidence panel, its state kept in the URL.
 *
 * Size: one pane component whose filter box, pager and sort headers read its private PaneState; its
 * state, rows, polling and cells already live in their own modules.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import {
  EVENTS_FILTERS,
  EVENTS_FILTER_LABELS,
  LOADING_JOB_RESULTS,
  NO_JOB_RESULTS,
  PAGE_SIZES,
  SORT_COLUMNS,
  SORT_LABELS,
  type EventsFilter,
  type JobListAnswer,
  type SortColumn,
} from '@/api/contracts/jobs';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import { useWorkbench } from '@/panes/pane-context';
import { Button } from '@/ui/button';
import { getJobs, jobsKeys } from '@/features/jobs/api';
import { setStepOpen } from '@/features/jobs/expanded';
import { allListedSelected, applyPanelFilter, changeFilter, focusWantedJob, goToPage, supplyPanelFilter, jobsPaneState, setPageJobs, setRows, toggleSelectAll, toggleSelected, urlJob, type PaneState, type RowRef } from '@/features/jobs/pane-state';
import { listPollMs, usePolling } from '@/features/jobs/polling';
import { toListRequest, type ListRequest, type StoredFilter } from '@/features/jobs/stored-filter';
import { useUrlState } from '@/ui/use-url-state';
import { FILTER_WORDS_HINT, parseJobFilter } from '@/features/jobs/filter-qualifiers';
import { repollTree, useListRows } from '@/features/jobs/tree-rows';
import { DateRangePicker } from './date-range-picker';
import { CommandButton, CommandMenu } from '@/commands/command-menu';
import { ActionCells, JOB_COLUMNS, JobCells, NoteCells, StepCells, type RowEnv } from './rows';
import { TreeGrid } from './tree-grid';
import { EvidencePanel } from './evidence-panel';
import { FilterPanel } from '@/ui/filters/filter-panel';
import { useFilterHost } from '@/ui/filters/use-filter-host';
import { fetchPageFilterData, filterKeys } from '@/ui/filters/api';
import type { PageFilterValues, SavedFilterBody } from '@/api/contracts/filters';
import { JOB_PAGE_FILTERS } from '@/features/jobs/page-filters';
import { ariaSort, SortButton, toggleSort } from '@/ui/table-head';

const exec = (id: string, args?: unknown) => void commands.execute(id, args, 'hotkey').catch(() => undefined);

/** Keys on the grid itself: arrows move and expand, Space selects, Enter opens (WAI-ARIA treegrid). */
export function treeKeys(e: KeyboardEvent, row: RowRef | null, s: PaneState, openUrl: (url: string) => void): boolean {
  switch (e.key) {
    case 'ArrowDown':
      exec('jobs.nextRow');
      return true;
    case 'ArrowUp':
      exec('jobs.previousRow');
      return true;
    case 'ArrowRight':
      if (row && (row.kind === 'job' || row.kind === 'step') && row.expanded) exec('jobs.nextRow');
      else exec('jobs.expand');
      return true;
    case 'ArrowLeft':
      exec('jobs.collapse');
      return true;
    case ' ':
      if (s.kind === 'jobs' && row?.kind === 'job') toggleSelected(s, row.jobId);
      else if (row?.kind === 'step') setStepOpen(row.jobId, row.step.id, !row.expanded);
      return true;
    case 'Enter':
      if (row?.kind === 'job') openUrl(`/jobs/${row.jobId}`);
      else if (row?.kind === 'step') setStepOpen(row.jobId, row.step.id, !row.expanded);
      else if (row?.kind === 'action') exec('jobs.showEvidence');
      return !!row;
    default:
      return false;
  }
}

function FilterBox({ s }: { s: PaneState }) {
  const snap = useSnapshot(s);
  const [text, setText] = useState(snap.filter.filter_value);
  const input = useRef<HTMLInputElement>(null);
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) setText(snap.filter.filter_value);
  }, [snap.filter.filter_value]);
  useEffect(() => {
    if (!typed.current) return;
    const t = setTimeout(() => {
      typed.current = false;
      if (text !== s.filter.filter_value) changeFilter(s, (f) => void (f.filter_value = text));
    }, 500);
    return () => clearTimeout(t);
  }, [text, s]);
  useEffect(() => {
    if (snap.focusFilterTick) input.current?.focus();
  }, [snap.focusFilterTick]);
  // The words of the filter applied that the list could not use, said next to the box (with the words there are).
  const hintId = useId();
  const problems = useMemo(() => parseJobFilter(snap.filter.filter_value).problems, [snap.filter.filter_value]);
  return (
    <>
    <input
      ref={input}
      type="search"
      aria-label="Filter jobs"
      aria-describedby={problems.length ? hintId : undefined}
      aria-invalid={problems.length ? true : undefined}
      placeholder="Filter: text, status:completed, ran_by:ada, id:300-321…"
      value={text}
      maxLength={200}
      onChange={(e) => {
        typed.current = true;
        setText(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          typed.current = false;
          changeFilter(s, (f) => void (f.filter_value = text));
        }
      }}
      className="w-72 rounded border border-line bg-surface px-2 py-1 text-sm"
    />
    {problems.length > 0 && (
      <p id={hintId} role="status" className="basis-full text-xs text-amber-700 dark:text-amber-300">
        Not understood: {problems.join('; ')}. <span className="text-muted">{FILTER_WORDS_HINT}</span>
      </p>
    )}
    </>
  );
}


function Pager({ s, answer }: { s: PaneState; answer: JobListAnswer | undefined }) {
  const snap = useSnapshot(s);
  const total = answer ? Math.min(answer.total_filtered_jobs, answer.total_jobs) : 0;
  const size = snap.filter.page_size;
  const page = snap.filter.page_number;
  const pages = Math.max(1, Math.ceil(total / size));
  const rows = answer?.jobs ?? answer?.filtered_jobs ?? [];
  const from = rows.length ? (page - 1) * size + 1 : 0;
  const about = answer?.total_filtered_estimated ? 'about ' : '';
  return (
    <footer className="flex shrink-0 flex-wrap items-center justify-between gap-2 border-t border-line bg-raised/50 px-3 py-1.5 text-xs" aria-label="Pagination">
      <span role="status" aria-live="polite">
        {answer ? `Showing ${from.toLocaleString()}–${(from + Math.max(0, rows.length - 1)).toLocaleString()} of ${about}${total.toLocaleString()} jobs` : ' '}
      </span>
      <div className="flex items-center gap-2">
        <label className="flex items-center gap-1 text-muted">
          Rows per page
          <select
            className="rounded border border-line bg-surface px-1 py-0.5 text-ink"
            value={size}
            onChange={(e) => changeFilter(s, (f) => void (f.page_size = Number(e.target.value)))}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <nav className="flex items-center gap-1" aria-label="Pages">
          <Button variant="ghost" aria-label="First page" disabled={page <= 1} onClick={() => goToPage(s, 1)}>
            «
          </Button>
          <Button variant="ghost" aria-label="Previous page" disabled={page <= 1} onClick={() => goToPage(s, page - 1)}>
            ‹
          </Button>
          <span className="px-1 tabular-nums" aria-current="page">
            Page {page.toLocaleString()} of {about}
            {pages.toLocaleString()}
          </span>
          <Button variant="ghost" aria-label="Next page" disabled={page >= pages} onClick={() => goToPage(s, page + 1)}>
            ›
          </Button>
          <Button variant="ghost" aria-label="Last page" disabled={page >= pages || !!answer?.total_filtered_estimated} onClick={() => goToPage(s, pages)}>
            »
          </Button>
        </nav>
      </div>
    </footer>
  );
}

/** A column of the Jobs list sorted by the server: newest first (desc) when first chosen, again reverses. */
function SortHeader({ s, col }: { s: PaneState; col: SortColumn }) {
  const { filter } = useSnapshot(s);
  const onSort = () =>
    changeFilter(s, (f) => {
      const next = toggleSort({ key: f.sort.by, dir: f.sort.direction }, col, 'desc');
      f.sort = { by: next.key, direction: next.dir };
    });
  return <SortButton label={SORT_LABELS[col]} active={filter.sort.by === col} dir={filter.sort.direction} onSort={onSort} />;
}

/** Rules from the URL's `rules` (JSON); anything unreadable is no rules (the director checks the rest). */
function rulesFromUrl(raw: string): StoredFilter['structured_filter']['rules'] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? (v as StoredFilter['structured_filter']['rules']) : [];
  } catch {
    return [];
  }
}

/** Page filter values from the URL's `page_filter` (JSON of strings); anything else is none. */
function pageFromUrl(raw: string): PageFilterValues {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  } catch {
    return {};
  }
}

/** The Jobs pane (/jobs, /jobs?vid=): the job results list with steps and actions (JOB-001..014). */
export function JobsPane({ params, setParams }: PaneProps) {
  const vid = params.vid ?? '';
  const ctx = commands.context();
  const s = useMemo(() => jobsPaneState(vid, ctx.user?.id ?? 'anonymous'), [vid, ctx.user?.id]);
  const snap = useSnapshot(s);
  const qc = useQueryClient();
  const { controller } = useWorkbench();
  const perms = ctx.permissions;

  // The text filter, the rule filter, the page filter values and the focused job row live in the URL
  // too (deep links, back/forward, bookmarks, reload).
  const pageValues = Object.fromEntries(Object.entries(snap.filter.structured_filter.page).filter(([, v]) => v !== '').sort(([a], [b]) => a.localeCompare(b)));
  const focusedJob = urlJob(snap as PaneState);
  useUrlState(
    params,
    setParams,
    {
      filter: snap.filter.filter_value.trim(),
      rules: snap.filter.structured_filter.rules.length ? JSON.stringify(snap.filter.structured_filter.rules) : '',
      page_filter: Object.keys(pageValues).length ? JSON.stringify(pageValues) : '',
      job: focusedJob === null ? '' : String(focusedJob),
    },
    (url) => {
      const filter = (url.filter ?? '').slice(0, 200);
      const rules = rulesFromUrl(url.rules ?? '');
      const page = pageFromUrl(url.page_filter ?? '');
      const f = s.filter;
      // Only a filter that changed goes back to page 1 (back to another focused row keeps the page).
      if (f.filter_value !== filter || JSON.stringify(f.structured_filter.rules) !== JSON.stringify(rules) || JSON.stringify(f.structured_filter.page) !== JSON.stringify(page))
        changeFilter(s, (next) => {
          next.filter_value = filter;
          next.structured_filter.rules = rules;
          next.structured_filter.page = page;
        });
      const job = /^\d+$/.test(url.job ?? '') ? Number(url.job) : null;
      if (job === null) s.activeKey = null;
      s.wantedJob = job;
      focusWantedJob(s, false);
    },
    // Moving the focus from row to row rewrites the entry: back goes to the previous filter, not the previous row.
    { replace: ['job'] },
  );

  // A page filter day starts at midnight in the filter source's timezone: the list waits for its offset (or its failure).
  const startedFrom = !!snap.filter.structured_filter.page.started_from;
  const source = useQuery({ queryKey: filterKeys.source('jobs'), queryFn: () => fetchPageFilterData('jobs'), enabled: startedFrom, staleTime: 60_000 });
  const timezoneOffset = source.data?.timezone_offset ?? null;
  useEffect(() => void (s.timezoneOffset = timezoneOffset), [s, timezoneOffset]);
  const req: ListRequest = useMemo(
    () => toListRequest(snap.filter as PaneState['filter'], vid, snap.cursor as PaneState['cursor'], timezoneOffset),
    [snap.filter, snap.cursor, vid, timezoneOffset],
  );
  const sentSelection = useRef<number[]>([]);
  const fetchList = (background: boolean) => {
    sentSelection.current = [...s.filter.selected_jobs];
    return getJobs({ ...req, selected: sentSelection.current }, { background });
  };
  const list = useQuery({ queryKey: jobsKeys.list(req), queryFn: () => fetchList(false), placeholderData: keepPreviousData, enabled: !startedFrom || !source.isPending });
  const answer = list.data;
  const jobs = useMemo(() => answer?.jobs ?? answer?.filtered_jobs ?? [], [answer]);
  const { rows, openJobIds, openSteps } = useListRows(jobs, snap.filter.structured_filter.events);

  // Publish what commands need: rows, jobs, totals and cursors.
  useEffect(() => {
    setRows(s, rows);
    setPageJobs(s, jobs);
    // Settled: the answer shown is for the filter the pane has now (not one a URL change just replaced).
    const current = JSON.stringify(toListRequest(s.filter, vid, s.cursor, s.timezoneOffset)) === JSON.stringify(req);
    focusWantedJob(s, !!answer && !list.isPlaceholderData && !list.isFetching && current);
    if (answer) {
      s.pageStart = answer.page_start;
      s.pageEnd = answer.page_end;
      s.totalShown = Math.min(answer.total_filtered_jobs, answer.total_jobs);
      s.pageCount = Math.max(1, Math.ceil(s.totalShown / s.filter.page_size));
    }
  });
  // A selection loses the jobs that no longer exist (the list call answers the selected ids it found).
  useEffect(() => {
    if (!answer) return;
    const gone = sentSelection.current.filter((id) => !answer.selected_jobs.includes(id));
    sentSelection.current = [];
    if (gone.length) s.filter.selected_jobs = s.filter.selected_jobs.filter((id) => !gone.includes(id));
  }, [answer, s]);
  // An empty page past the end (jobs were deleted): go back to the last page.
  useEffect(() => {
    if (answer && jobs.length === 0 && snap.filter.page_number > 1 && answer.total_filtered_jobs > 0) goToPage(s, Math.ceil(answer.total_filtered_jobs / snap.filter.page_size));
  }, [answer, jobs.length, snap.filter.page_number, snap.filter.page_size, s]);

  const poller = usePolling(listPollMs(jobs), async () => {
    await Promise.all([qc.fetchQuery({ queryKey: jobsKeys.list(req), queryFn: () => fetchList(true), staleTime: 0 }), repollTree(qc, openJobIds, openSteps, req.events)]);
  });
  const restart = poller.restart;
  // The refresh command asks for a fresh start of polling too.
  const refreshTick = snap.refreshTick;
  const restartRef = useRef(restart);
  restartRef.current = restart;
  useEffect(() => {
    if (refreshTick) restartRef.current();
  }, [refreshTick]);

  // The filter panel: the builder's rules and page filter values live in the stored filter.
  useFilterHost({
    target: 'jobs',
    url: vid ? `/jobs?vid=${encodeURIComponent(vid)}` : '/jobs',
    focus: () => void (s.panelFocusTick += 1),
    clear: () => applyPanelFilter(s, { rules: [], page: {} }),
    apply: () => void (s.panelApplyTick += 1),
    load: (b) => supplyPanelFilter(s, b),
    current: () => ({ rules: [...s.filter.structured_filter.rules], page: { ...s.filter.structured_filter.page } }),
  });
  const panelValue = useMemo(
    () => ({ rules: snap.filter.structured_filter.rules as SavedFilterBody['rules'], page: snap.filter.structured_filter.page as SavedFilterBody['page'] }),
    [snap.filter.structured_filter.rules, snap.filter.structured_filter.page],
  );

  const env: RowEnv = {
    permissions: perms,
    openUrl: (url) => controller.openUrl(url),
    selection: { selected: snap.filter.selected_jobs, toggle: (id) => toggleSelected(s, id) },
  };
  const selected = snap.filter.selected_jobs;
  const allSelected = allListedSelected(jobs, selected);
  const someSelected = !allSelected && jobs.some((j) => selected.includes(j.id));
  const events = snap.filter.structured_filter.events;

  const placeholder = list.isPending ? (
    <div className="p-6 text-muted" role="status">
      {LOADING_JOB_RESULTS}
    </div>
  ) : list.isError && !answer ? (
    <div className="m-4 rounded border border-red-500/60 bg-red-500/10 p-3" role="alert">
      {list.error.message}{' '}
      <button type="button" className="underline" onClick={() => void list.refetch()}>
        Try again
      </button>
    </div>
  ) : jobs.length === 0 ? (
    <div className="p-6 text-muted" role="status">
      {NO_JOB_RESULTS}
    </div>
  ) : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="jobs-pane">
      <div className="flex shrink-0 flex-wrap items-center gap-2 border-b border-line px-3 py-2" role="toolbar" aria-label="Jobs toolbar">
        <CommandMenu
          menu="toolbar/jobs-selection"
          label="Selected jobs"
          className="border-line bg-surface"
          button={
            <>
              Actions{selected.length ? ` (${selected.length})` : ''} <span aria-hidden="true">▾</span>
            </>
          }
        />
        <FilterBox s={s} />
        <DateRangePicker value={snap.filter.filter_range} onChange={(v) => changeFilter(s, (f) => void (f.filter_range = v))} />
        <label className="flex items-center gap-1 text-xs text-muted">
          Events
          <select
            aria-label="Filter job actions by events"
            className="rounded border border-line bg-surface px-1.5 py-1 text-sm text-ink"
            value={events}
            onChange={(e) => changeFilter(s, (f) => void (f.structured_filter.events = e.target.value as EventsFilter | ''))}
          >
            <option value="">All</option>
            {EVENTS_FILTERS.map((ev) => (
              <option key={ev} value={ev}>
                {EVENTS_FILTER_LABELS[ev]}
              </option>
            ))}
          </select>
        </label>
        <div className="flex-1" />
        {vid && (
          <span className="rounded bg-raised px-2 py-0.5 text-xs" title="Only jobs of this Action or Simulation">
            VID <b className="font-mono">{vid}</b>
          </span>
        )}
        {poller.stopped && <span className="text-xs text-amber-600 dark:text-amber-300">Polling stopped</span>}
        {list.isFetching && !list.isPending && <span className="text-xs text-muted">Updating…</span>}
        <CommandMenu
          menu="toolbar/jobs-export"
          label="Export"
          className="border-line bg-surface"
          button={
            <>
              Export <span aria-hidden="true">▾</span>
            </>
          }
        />
        <CommandButton command="jobs.refresh" />
      </div>
      <FilterPanel
        target="jobs"
        label="Job filters"
        items={JOB_PAGE_FILTERS}
        value={panelValue}
        onApply={(b) => applyPanelFilter(s, b)}
        open={snap.panelOpen}
        onOpenChange={(o) => void (s.panelOpen = o)}
        focusTick={snap.panelFocusTick}
        applyTick={snap.panelApplyTick}
      />
      <TreeGrid
        label="Jobs"
        rows={rows}
        activeKey={snap.activeKey}
        onActivate={(key) => void (s.activeKey = key)}
        columns={JOB_COLUMNS}
        selectedJobs={selected}
        placeholder={placeholder}
        onKey={(e, row) => treeKeys(e, row, s, env.openUrl)}
        header={
          <>
            <div role="columnheader" className="flex items-center gap-1.5" aria-sort={ariaSort(snap.filter.sort.by === 'job_id', snap.filter.sort.direction)}>
              <input
                type="checkbox"
                aria-label="Select all listed jobs"
                className="h-3.5 w-3.5 accent-[rgb(var(--accent))]"
                checked={allSelected}
                ref={(el) => {
                  if (el) el.indeterminate = someSelected;
                }}
                onChange={() => toggleSelectAll(s)}
                disabled={!jobs.length}
              />
              <span className="w-5" />
              <SortHeader s={s} col="job_id" />
            </div>
            {SORT_COLUMNS.filter((c) => c !== 'job_id').map((c) => (
              <div key={c} role="columnheader" aria-sort={ariaSort(snap.filter.sort.by === c, snap.filter.sort.direction)}>
                <SortHeader s={s} col={c} />
              </div>
            ))}
            <div role="columnheader">
              <span className="sr-only">Row actions</span>
            </div>
          </>
        }
        renderRow={(row) =>
          row.kind === 'job' ? <JobCells row={row} env={env} /> : row.kind === 'step' ? <StepCells row={row} /> : row.kind === 'action' ? <ActionCells row={row} env={env} /> : <NoteCells row={row} />
        }
      />
      <EvidencePanel s={s} />
      <Pager s={s} answer={answer} />
    </div>
  );
}
