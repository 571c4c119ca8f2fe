/**
 * The jobs calls the benchmarks time over HTTP (bench:jobs on PGlite, bench:pg on PostgreSQL): the
 * scenarios (list pages, sorts, filters, date ranges, one job, a step's actions), one client at a time,
 * and mixed from several clients at once.
 */
import os from 'node:os';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../e2e/director';
import type { JobDetail, JobListAnswer } from '../src/api/contracts/jobs';
import { percentile } from './stats';
import { cpuMeters, cpuPerCall } from './proc-cpu';
import { timedRequest } from './http-client';

/** Client counts of the mixed runs (JOBS_BENCH_CONCURRENCY=8,32). */
export const CONCURRENCY = (process.env.JOBS_BENCH_CONCURRENCY || '8,32').split(',').map(Number);
const RUNS = 100;
const MIXED_SECONDS = Number(process.env.JOBS_BENCH_MIXED_SECONDS || 15);

export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
export const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

export interface Session {
  cookie: string;
  csrf: string;
}

export async function login(url: string): Promise<Session> {
  const res = await fetch(`${url}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const body = (await res.json()) as { csrf_token: string };
  return { cookie, csrf: body.csrf_token };
}

const callHeaders = (s: Session) => ({ cookie: s.cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-background-task': 'true' });

export async function get<T>(url: string, s: Session): Promise<T> {
  const res = await fetch(url, { headers: callHeaders(s) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

export type Scenario = [label: string, path: () => string];
export type Get = <T>(path: string) => Promise<T>;

export async function scenarios(get: Get): Promise<Scenario[]> {
  const first = await get<JobListAnswer>('/jobs/list_page_data.json?size=30');
  const newest = first.jobs?.[0]?.id ?? 1;
  const detail = await get<JobDetail>(`/jobs/${newest}.json`);
  const stepIds = detail.steps.map((st) => `job_step_ids[]=${st.id}`).join('&');
  const sim = await get<JobListAnswer>('/jobs/list_page_data.json?size=1&filterVal=hygiene');
  const simVid = sim.filtered_jobs?.[0]?.simulation?.vid ?? 'S000-000';
  const cursors: string[] = [];
  let after = first.page_end;
  for (let i = 0; i < 20 && after; i++) {
    cursors.push(after);
    after = (await get<JobListAnswer>(`/jobs/list_page_data.json?size=30&page=${i + 1}&after=${after}`)).page_end;
  }
  const day = 86_400_000;
  const iso = (t: number) => new Date(t).toISOString();
  const range = (from: number, to: number) => encodeURIComponent(`${iso(from)},${iso(to)}`);
  let k = 0;
  const total = first.total_jobs;
  return [
    ['first page, 10 by id', () => '/jobs/list_page_data.json?size=10&page=0'],
    ['first page, 30 by id', () => '/jobs/list_page_data.json?size=30&page=0'],
    ['next page by cursor (20 deep)', () => `/jobs/list_page_data.json?size=30&page=${(k % cursors.length) + 1}&after=${cursors[k++ % cursors.length]}`],
    ['page 2,000 by number', () => '/jobs/list_page_data.json?size=30&page=2000'],
    ['last page by number', () => `/jobs/list_page_data.json?size=30&page=${Math.ceil(total / 30) - 1}`],
    ['sort Job Name asc', () => '/jobs/list_page_data.json?size=30&sortCol=job_name&sortDir=asc'],
    ['sort Job Status desc', () => '/jobs/list_page_data.json?size=30&sortCol=job_status&sortDir=desc'],
    ['sort Ran By asc', () => '/jobs/list_page_data.json?size=30&sortCol=job_user&sortDir=asc'],
    ['sort Time Started desc', () => '/jobs/list_page_data.json?size=30&sortCol=job_time&sortDir=desc'],
    ['filter text, common name', () => '/jobs/list_page_data.json?size=30&filterVal=hygiene'],
    ['filter text, status', () => '/jobs/list_page_data.json?size=30&filterVal=cancelled'],
    ['filter text, job id', () => `/jobs/list_page_data.json?size=30&filterVal=${newest - 12345}`],
    ['filter text, no match', () => '/jobs/list_page_data.json?size=30&filterVal=zzqx'],
    ['date range, last 7 days', () => `/jobs/list_page_data.json?size=30&filterRange=${range(Date.now() - 7 * day, Date.now())}`],
    ['date range, 1 day a year ago', () => `/jobs/list_page_data.json?size=30&filterRange=${range(Date.now() - 365 * day, Date.now() - 364 * day)}`],
    ['date range, 30 days a year ago', () => `/jobs/list_page_data.json?size=30&filterRange=${range(Date.now() - 395 * day, Date.now() - 365 * day)}`],
    ['events: suspicious', () => `/jobs/list_page_data.json?size=30&filter=adhoc&structuredFilter=${encodeURIComponent('{"events":"suspicious"}')}`],
    ['events: none', () => `/jobs/list_page_data.json?size=30&filter=adhoc&structuredFilter=${encodeURIComponent('{"events":"none"}')}`],
    ['vid: a simulation', () => `/jobs/list_page_data.json?size=30&vid=${simVid}`],
    ['one job with steps', () => `/jobs/${newest - (k++ % 5000)}.json`],
    ['actions of a step', () => `/jobs/list_page_job_actions?${stepIds}`],
  ];
}

export async function sequential(title: string, get: Get, list: Scenario[]): Promise<number[]> {
  console.log(`\n${title} (${RUNS} calls each after 5 warm-up calls), milliseconds:`);
  console.log(`${'call'.padEnd(32)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}  total`);
  const listSamples: number[] = [];
  for (const [label, p] of list) {
    for (let i = 0; i < 5; i++) await get(p());
    const samples: number[] = [];
    let answer: unknown;
    for (let i = 0; i < RUNS; i++) {
      const [a, t] = await time(() => get(p()));
      samples.push(t);
      answer = a;
    }
    samples.sort((a, b) => a - b);
    if (p().startsWith('/jobs/list_page_data.json')) listSamples.push(...samples);
    const a = answer as Partial<JobListAnswer>;
    const total = a.total_filtered_jobs !== undefined ? `${a.total_filtered_estimated ? '~' : ''}${a.total_filtered_jobs.toLocaleString('en-US')}` : '';
    console.log(`${label.padEnd(32)} ${ms(percentile(samples, 50)).padStart(7)} ${ms(percentile(samples, 99)).padStart(7)} ${ms(samples[samples.length - 1]!).padStart(7)}  ${total}`);
  }
  listSamples.sort((a, b) => a - b);
  console.log(`all list calls: p50 ${ms(percentile(listSamples, 50))}, p99 ${ms(percentile(listSamples, 99))}`);
  return listSamples;
}

/** Runs `sequential` over HTTP, then `mixed` at each of CONCURRENCY clients. */
export async function measure(base: string, s: Session, list: Scenario[], director: CpuSource): Promise<MixedFigures[]> {
  await sequential('HTTP to the director, one client at a time', (p) => get(base + p, s), list);
  const figures: MixedFigures[] = [];
  for (const clients of CONCURRENCY) figures.push(await mixed(base, s, list, clients, director));
  return figures;
}

/** The director's process (and the PostgreSQL server it uses, if any) whose CPU time a run reads. */
export interface CpuSource {
  pid: number;
  databaseUrl?: string;
}

/** One line a run: clients, calls/s, list and all calls p50/p99, CPU a call. */
export function summaryLine(f: MixedFigures): string {
  return `${String(f.clients).padStart(3)} clients: ${f.callsPerSecond.toFixed(0)} calls/s; list calls p50 ${ms(f.list.p50)} ms, p99 ${ms(f.list.p99)} ms; all calls p50 ${ms(f.all.p50)}, p99 ${ms(f.all.p99)} ms; ${f.cpu}; load average ${f.load}`;
}

/** Figures of one mixed run: calls per second, and p50/p99 of all calls and of the list calls only. */
export interface MixedFigures {
  clients: number;
  callsPerSecond: number;
  all: { p50: number; p99: number };
  list: { p50: number; p99: number };
  /** CPU time a call (director, PostgreSQL, load generator). */
  cpu: string;
  /** The load average during the run. */
  load: string;
}

/** `clients` at once for MIXED_SECONDS, every call of `list` in turn; prints and returns the figures. */
export async function mixed(base: string, s: Session, list: Scenario[], clients: number, director: CpuSource): Promise<MixedFigures> {
  console.log(`\nHTTP, ${clients} clients at once for ${MIXED_SECONDS} s, every call above in turn, milliseconds:`);
  const per = new Map<string, number[]>();
  const deadline = Date.now() + MIXED_SECONDS * 1000;
  let n = 0;
  const meter = cpuMeters(director.pid, director.databaseUrl);
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = c; Date.now() < deadline; i++) {
        const [label, p] = list[i % list.length]!;
        const url = base + p();
        const { status, ms: t } = await timedRequest(url, { headers: callHeaders(s) });
        if (status !== 200) throw new Error(`${url}: ${status}`);
        (per.get(label) ?? per.set(label, []).get(label)!).push(t);
        n++;
      }
    }),
  );
  const cpu = cpuPerCall(meter(), n);
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const all = [...per.values()].flat().sort((a, b) => a - b);
  console.log(`${n} calls, ${(n / MIXED_SECONDS).toFixed(0)} calls/s; all calls p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}; load average ${load}`);
  console.log(cpu);
  const listCalls = [...per.entries()].filter(([l]) => !l.startsWith('one job') && !l.startsWith('actions of')).flatMap(([, v]) => v).sort((a, b) => a - b);
  console.log(`list calls only: p50 ${ms(percentile(listCalls, 50))}, p99 ${ms(percentile(listCalls, 99))}`);
  for (const [label, v] of per) {
    v.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(32)} n=${String(v.length).padStart(4)}  p50 ${ms(percentile(v, 50)).padStart(7)}  p99 ${ms(percentile(v, 99)).padStart(7)}`);
  }
  return {
    clients,
    callsPerSecond: n / MIXED_SECONDS,
    all: { p50: percentile(all, 50), p99: percentile(all, 99) },
    list: { p50: percentile(listCalls, 50), p99: percentile(listCalls, 99) },
    cpu,
    load,
  };
}

