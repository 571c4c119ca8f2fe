import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, signInThroughForm as signIn } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, REPO_ROOT, startDirector, type Director } from '../e2e/director';
import { openPglite, type Db } from '../server/db/index';
import type { JobDetail, JobListAnswer } from '../src/api/contracts/jobs';
import { listJobs, parseListQuery } from '../server/jobs/list-query';
import { getJob, getStepActions } from '../server/jobs/service';
import { seedJobs } from './seed-jobs';
import { percentile } from './stats';

/**
 * Jobs at 1,000,000 rows (issue 7):
 *  1. seeds a temporary PGlite database: the demo content, then bulk jobs up to JOBS in all, each with a
 *     step and two action results (insert ... select from generate_series, indexes built afterwards);
 *  2. starts the real director on it and times the jobs calls over HTTP: each scenario alone (p50/p99),
 *     then all of them mixed from CONCURRENCY clients at once;
 *  3. in Chromium against the built workbench: time to the first rows of the Jobs pane, next-page time,
 *     and frame times while scrolling a page of 30 expanded jobs.
 * Figures are printed; nothing is asserted. JOBS_BENCH_ROWS, JOBS_BENCH_CONCURRENCY,
 * JOBS_BENCH_DATA_DIR (keep and reuse the seeded database) and VIGIL_BENCH_STATIC_DIR (another build of
 * the workbench) change the defaults.
 */

const JOBS = Number(process.env.JOBS_BENCH_ROWS || 1_000_000);
const CONCURRENCY = Number(process.env.JOBS_BENCH_CONCURRENCY || 8);
const RUNS = 100;
const MIXED_SECONDS = 15;

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

// ---------------------------------------------------------------------------------------------
// 2. HTTP

interface Session {
  cookie: string;
  csrf: string;
}

async function login(url: string): Promise<Session> {
  const res = await fetch(`${url}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const body = (await res.json()) as { csrf_token: string };
  return { cookie, csrf: body.csrf_token };
}

async function get<T>(url: string, s: Session): Promise<T> {
  const res = await fetch(url, { headers: { cookie: s.cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-background-task': 'true' } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

type Scenario = [label: string, path: () => string];
type Get = <T>(path: string) => Promise<T>;

async function scenarios(get: Get): Promise<Scenario[]> {
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

/** The director's handlers called in-process on the embedded database (no HTTP): the database time of each call. */
function inProcess(db: Db): Get {
  return async <T>(url: string): Promise<T> => {
    const u = new URL(url, 'http://bench.local');
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of u.searchParams) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    if (u.pathname === '/jobs/list_page_data.json') return (await listJobs(db, parseListQuery(query))) as T;
    if (u.pathname === '/jobs/list_page_job_actions') return (await getStepActions(db, ([] as string[]).concat(query['job_step_ids[]'] ?? []).map(Number), null)) as T;
    const m = /^\/jobs\/(\d+)\.json$/.exec(u.pathname);
    if (m) return (await getJob(db, Number(m[1]))) as T;
    throw new Error(`no in-process route for ${url}`);
  };
}

async function sequential(title: string, get: Get, list: Scenario[]): Promise<number[]> {
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

async function dbFigures(dataDir: string): Promise<void> {
  const db = await openPglite(dataDir);
  try {
    const get = inProcess(db);
    await sequential('Embedded database (PGlite), the list handler called in-process, one call at a time', get, await scenarios(get));
  } finally {
    await db.close();
  }
}

async function measure(base: string, s: Session, list: Scenario[]): Promise<void> {
  await sequential('HTTP to the director, one client at a time', (p) => get(base + p, s), list);

  console.log(`\nHTTP, ${CONCURRENCY} clients at once for ${MIXED_SECONDS} s, every call above in turn, milliseconds:`);
  const per = new Map<string, number[]>();
  const deadline = Date.now() + MIXED_SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, c) => {
      for (let i = c; Date.now() < deadline; i++) {
        const [label, p] = list[i % list.length]!;
        const [, t] = await time(() => get(base + p(), s));
        (per.get(label) ?? per.set(label, []).get(label)!).push(t);
        n++;
      }
    }),
  );
  const all = [...per.values()].flat().sort((a, b) => a - b);
  console.log(`${n} calls, ${(n / MIXED_SECONDS).toFixed(0)} calls/s; all calls p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}`);
  const listCalls = [...per.entries()].filter(([l]) => !l.startsWith('one job') && !l.startsWith('actions of')).flatMap(([, v]) => v).sort((a, b) => a - b);
  console.log(`list calls only: p50 ${ms(percentile(listCalls, 50))}, p99 ${ms(percentile(listCalls, 99))}`);
  for (const [label, v] of per) {
    v.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(32)} n=${String(v.length).padStart(4)}  p50 ${ms(percentile(v, 50)).padStart(7)}  p99 ${ms(percentile(v, 99)).padStart(7)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Browser

async function browserFigures(director: Director): Promise<void> {
  const browser = await launchBrowser();
  try {
    const { page, context } = await openPage(browser, director.url);
    // tsx keeps function names with a __name(...) helper the page does not have.
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    // Records when the first job row enters the DOM, on the page's own clock (0 = navigation start).
    await context.addInitScript(() => {
      const w = window as unknown as { __firstRows?: number };
      const obs = new MutationObserver(() => {
        if (w.__firstRows === undefined && document.querySelector('[data-row-kind=job]')) {
          w.__firstRows = performance.now();
          obs.disconnect();
        }
      });
      obs.observe(document, { childList: true, subtree: true });
    });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/');
    const firstRows: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto('/jobs');
      await page.locator('[role=treegrid][aria-label=Jobs] [data-row-kind=job]').first().waitFor({ timeout: 60_000 });
      const t = await page.evaluate(() => (window as unknown as { __firstRows?: number }).__firstRows ?? Number.NaN);
      if (i > 0) firstRows.push(t);
    }
    const nextPage: number[] = [];
    await setPageSize(page, 30);
    for (let i = 0; i < 10; i++) {
      // In the page: from the click's own timestamp to the frame after the first row changed.
      const measured = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const first = () => document.querySelector('[data-row-kind=job] a[href^="/jobs/"]')?.textContent;
            const before = first();
            let clickedAt = 0;
            document.addEventListener('click', (e) => (clickedAt = e.timeStamp), { capture: true, once: true });
            const obs = new MutationObserver(() => {
              if (!clickedAt || first() === before) return;
              obs.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - clickedAt));
            });
            obs.observe(document.body, { childList: true, subtree: true, characterData: true });
          }),
      );
      await page.getByRole('button', { name: 'Next page' }).click();
      nextPage.push(await measured);
    }
    // Expand every job of the page and each step, then scroll the grid for 3 s.
    await page.getByRole('button', { name: 'First page' }).click();
    await page.waitForTimeout(500);
    for (let i = 0; i < 30 && (await page.getByRole('button', { name: /^Expand job/ }).count()); i++) await page.getByRole('button', { name: /^Expand job/ }).first().click();
    await page.waitForTimeout(1000);
    for (let i = 0; i < 60 && (await page.getByRole('button', { name: /^Expand step/ }).count()); i++) await page.getByRole('button', { name: /^Expand step/ }).first().click();
    await page.waitForTimeout(1500);
    const rows = await page.evaluate(() => Number(document.querySelector('[role=treegrid][aria-label=Jobs]')?.getAttribute('aria-rowcount') ?? 0) - 1);
    const frames = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const grid = document.querySelector<HTMLElement>('[role=treegrid][aria-label=Jobs]')!;
          const out: number[] = [];
          let last = performance.now();
          const end = last + 3000;
          let dir = 1;
          const step = (now: number) => {
            out.push(now - last);
            last = now;
            grid.scrollTop += dir * 60;
            if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) dir = -1;
            if (grid.scrollTop <= 0) dir = 1;
            if (now < end) requestAnimationFrame(step);
            else resolve(out.slice(1));
          };
          requestAnimationFrame(step);
        }),
    );
    frames.sort((a, b) => a - b);
    const slow = frames.filter((f) => f > 20).length;
    console.log(`\nChromium ${browser.version()} (headless, no GPU), built workbench:`);
    firstRows.sort((a, b) => a - b);
    nextPage.sort((a, b) => a - b);
    console.log(`  time to first rows of the Jobs pane (navigation start -> first job row), 5 loads: ${firstRows.map((x) => ms(x)).join(', ')} ms`);
    console.log(`  Next page (30 jobs, keyset cursor), click -> frame with the new rows, 10 clicks: p50 ${ms(percentile(nextPage, 50))} ms, max ${ms(nextPage[nextPage.length - 1] ?? Number.NaN)} ms`);
    console.log(`  scrolling ${rows} rows (30 jobs, steps and actions expanded) for 3 s: ${frames.length} frames, frame time p50 ${ms(percentile(frames, 50))} ms, p95 ${ms(percentile(frames, 95))} ms, max ${ms(frames[frames.length - 1] ?? NaN)} ms, ${slow} frames over 20 ms`);
  } finally {
    await browser.close();
  }
}

async function setPageSize(page: Page, size: number): Promise<void> {
  await page.getByLabel('Rows per page').selectOption(String(size));
  await page.getByText(new RegExp(`^Showing 1–${size} of`)).waitFor();
}

async function main(): Promise<void> {
  // JOBS_BENCH_DATA_DIR keeps the seeded database (and reuses it when it is already there).
  const keep = process.env.JOBS_BENCH_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-jobs-bench-'));
  const staticDir = process.env.VIGIL_BENCH_STATIC_DIR || path.join(REPO_ROOT, 'dist');
  let director: Director | null = null;
  try {
    if (keep && fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) console.log(`Reusing the seeded database in ${dataDir}`);
    else {
      console.log(`Seeding ${JOBS.toLocaleString('en-US')} jobs into ${dataDir} (PGlite)…`);
      const [, t] = await time(() => seedJobs(dataDir, JOBS));
      console.log(`seeded in ${(t / 1000).toFixed(0)} s`);
    }
    console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
    await dbFigures(dataDir);
    director = await startDirector({ DATA_DIR: dataDir, STATIC_DIR: staticDir, SEED: 'none' });
    const s = await login(director.url);
    await measure(director.url, s, await scenarios((p) => get(director!.url + p, s)));
    if (fs.existsSync(path.join(staticDir, 'index.html'))) await browserFigures(director).catch((e: unknown) => console.log(`\nbrowser figures failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`));
    else console.log(`\nno built workbench in ${staticDir}: browser figures skipped (npm run build)`);
  } finally {
    await director?.stop();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
