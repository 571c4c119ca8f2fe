import { proxy, subscribe, useSnapshot } from 'valtio';

/**
 * Which jobs (in the list) and which of their steps are expanded, remembered per job in browser storage
 * (JOB-011), for the newest MAX_JOBS jobs touched.
 */

export const EXPANDED_STORAGE_KEY = 'vigil.jobs.expanded.v1';
const MAX_JOBS = 500;

interface Entry {
  open: boolean;
  steps: number[];
  at: number;
}

function load(): Record<string, Entry> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(EXPANDED_STORAGE_KEY) ?? '{}');
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Record<string, Entry> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
      const x = e as Partial<Entry> | null;
      if (!/^\d+$/.test(k) || !x || typeof x !== 'object') continue;
      out[k] = { open: x.open === true, steps: Array.isArray(x.steps) ? x.steps.filter((s): s is number => Number.isInteger(s)) : [], at: typeof x.at === 'number' ? x.at : 0 };
    }
    return out;
  } catch {
    return {};
  }
}

export const expandedStore = proxy<{ jobs: Record<string, Entry> }>({ jobs: typeof localStorage === 'undefined' ? {} : load() });

// Written at once (valtio already batches a burst of changes into one notification), so a reload
// right after a click keeps what was expanded.
subscribe(expandedStore, () => {
  const entries = Object.entries(expandedStore.jobs).sort((a, b) => b[1].at - a[1].at);
  if (entries.length > MAX_JOBS) {
    for (const [k] of entries.slice(MAX_JOBS)) delete expandedStore.jobs[k];
    return; // the deletions notify again, and that pass writes
  }
  try {
    localStorage.setItem(EXPANDED_STORAGE_KEY, JSON.stringify(expandedStore.jobs));
  } catch {
    // storage unavailable: remembered for this page only
  }
});

function entry(jobId: number): Entry {
  const k = String(jobId);
  const e = (expandedStore.jobs[k] ??= { open: false, steps: [], at: Date.now() });
  e.at = Date.now();
  return e;
}

type ExpandedJobs = Readonly<Record<string, { readonly open: boolean; readonly steps: readonly number[] }>>;
export const isJobOpen = (jobs: ExpandedJobs, jobId: number) => jobs[String(jobId)]?.open === true;
export const isStepOpen = (jobs: ExpandedJobs, jobId: number, stepId: number) => jobs[String(jobId)]?.steps.includes(stepId) === true;

export function setJobOpen(jobId: number, open: boolean): void {
  const e = entry(jobId);
  if (e.open !== open) e.open = open;
}

export function setStepOpen(jobId: number, stepId: number, open: boolean): void {
  const e = entry(jobId);
  const has = e.steps.includes(stepId);
  if (open && !has) e.steps.push(stepId);
  if (!open && has) e.steps.splice(e.steps.indexOf(stepId), 1);
}

export const useExpanded = () => useSnapshot(expandedStore).jobs;
