import fs from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, openPage, signInThroughForm as signIn } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, REPO_ROOT, startDirector, type Director } from '../e2e/director';
import { openPglite, openPostgres, type Db } from '../server/db/index';
import { mitreMatrix, mitreTaam, panelAnswers, results, timeSeries, treeMap, untestedTechniques } from '../server/reports/service';
import { dashboardRequests } from '../src/features/reports/panel-data';
import { setJobRuleCompiler } from '../server/jobs/rule-filter';
import { compileJobRules } from '../server/filters/compile';
import { GROUP_KEYS, PANEL_KINDS, type DashboardPanel } from '../src/api/contracts/reports';
import { newPanel } from '../src/features/reports/panels';
import { buildReportPdf, type ReportSection } from '../src/features/reports/pdf-report';
import { seedJobsInto, withSeededJobs } from './seed-jobs';
import { percentile } from './stats';

/**
 * Reports at 1,000,000 job actions (issue 18):
 *  1. seeds a temporary PGlite database (bench/seed-jobs.ts): the demo content, then 500,000 jobs over two
 *     years, each with two action results;
 *  2. calls every report aggregation in-process on the embedded database, one at a time: p50/p95/p99
 *     per call (goal: p99 <= 100 ms), with each kind of filter (filters on job class fields read the class
 *     rollups, filters on the job status the status rollups, filters only on job action VIDs or only on
 *     event counts the facet rollups; job ids and other job action rules read the jobs they keep raw); with TEST_DATABASE_URL (`npm run bench:reports:pg`) the same calls on a PostgreSQL
 *     database seeded alike, printed beside the PGlite figures;
 *  3. builds a 20-page report PDF with jsPDF in Node (tables only: the document work, no capture);
 *  4. in Chromium against the built workbench and the real director: time from opening a 9-panel
 *     dashboard to all panels drawn (goal <= 1 s), and the PDF export of that dashboard from the click
 *     to the download (goal <= 5 s for 20 pages); beside each wall time, the page's main-thread busy time
 *     (CDP TaskDuration) and the director's CPU time (/proc), which this shared machine's load changes least.
 * Figures are printed; nothing is asserted. REPORTS_BENCH_JOBS, REPORTS_BENCH_DATA_DIR (keep and reuse
 * the seeded database), REPORTS_BENCH_RUNS, REPORTS_BENCH_CALLS, REPORTS_BENCH_ONLY (calls or browser) and VIGIL_BENCH_STATIC_DIR
 * change the defaults.
 */

const JOBS = Number(process.env.REPORTS_BENCH_JOBS || 500_000);
const RUNS = Number(process.env.REPORTS_BENCH_RUNS || 30);
/** REPORTS_BENCH_ONLY=calls|browser|pg runs one part (the seed is kept with REPORTS_BENCH_DATA_DIR; pg: PostgreSQL alone). */
const ONLY = process.env.REPORTS_BENCH_ONLY ?? '';
/** REPORTS_BENCH_CALLS=regex: only the calls whose label matches (e.g. 'rule|text|VID|events' for the filtered ones). */
const CALLS = new RegExp(process.env.REPORTS_BENCH_CALLS || '.', 'i');
/** A call stops sampling after this long (slow calls on a loaded machine get fewer samples). */
const SCENARIO_BUDGET_MS = 20_000;

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
/** The machine's load beside each figure: this 2-core machine is shared, and the figures follow its load. */
const load = () => `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`;
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

// ---------------------------------------------------------------------------------------------
// 2. Aggregations in-process

type Scenario = [label: string, call: (db: Db) => Promise<unknown>];

/** A rule builder filter (as the jobs list and a panel's filter send it) of one condition. */
const rule = (match_object: string, match_field: string, operator: string, value: string | string[]) => ({
  filter: 'adhoc',
  structuredFilter: JSON.stringify({ rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object, match_field, operator, value }] }] }] }),
});
const jobRule = (match_field: string, operator: string, value: string | string[]) => rule('job', match_field, operator, value);
const WORKING_DAYS = { week_days: 'M,T,W,Th,F', tz: 'Europe/Paris' };
const eventsFilter = (events: string) => ({ filter: 'adhoc', structuredFilter: JSON.stringify({ events }) });
const HYGIENE_RULE = jobRule('name', 'contains', 'hygiene');

/** A simulation's VID for the VID filter (looked up once). */
let simVid: string | undefined;
const someSimulation = async (db: Db) => (simVid ??= (await db.query<{ vid: string }>('select vid from simulations order by id limit 1'))[0]?.vid ?? 'S000');
/** An Action's VID for the Action VID filters (looked up once). */
let actionVid: string | undefined;
const someAction = async (db: Db) => (actionVid ??= (await db.query<{ vid: string }>('select vid from actions where not decommissioned order by id limit 1'))[0]?.vid ?? 'A000');

function scenarios(): Scenario[] {
  // Rule filters compile as the director's (server/routes/filters.ts installs the same compiler).
  setJobRuleCompiler(compileJobRules);
  const day = 86_400_000;
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  const year = { start: iso(now - 365 * day), end: iso(now) };
  const month = { start: iso(now - 395 * day), end: iso(now - 365 * day) };
  const all = {};
  const list: Scenario[] = [
    ['results, totals, all time', (db) => results(db, { ...all, group_by: 'action_type' })],
    ...GROUP_KEYS.map((k): Scenario => [`results by ${k}, last 365 days`, (db) => results(db, { ...year, group_by: k })]),
    ['results by action_type, 30 days a year ago', (db) => results(db, { ...month, group_by: 'action_type' })],
    ['results, text filter "hygiene", 365 days', (db) => results(db, { ...year, group_by: 'action_type', filterVal: 'hygiene' })],
    ['results, rule "job name contains hygiene", 365 d', (db) => results(db, { ...year, group_by: 'action_type', ...HYGIENE_RULE })],
    ['by actor, rule "Ran By in Ada Admin", 365 d', (db) => results(db, { ...year, group_by: 'actor', ...jobRule('ran_by', 'in', ['Ada Admin']) })],
    ['by technique, rule "published yes", 365 d', (db) => results(db, { ...year, group_by: 'technique', ...jobRule('published', 'equals', 'yes') })],
    ['by zone, simulation VID filter, 365 d', async (db) => results(db, { ...year, group_by: 'zone', vid: await someSimulation(db) })],
    ['series 121 points, text "hygiene", 365 d', (db) => timeSeries(db, { ...year, points: 121, filterVal: 'hygiene' })],
    // Job status filters read the status rollups (022_reports_status_rollups.sql).
    ['rule "job status in errored", 365 d', (db) => results(db, { ...year, group_by: 'action_type', ...jobRule('status', 'in', 'errored') })],
    ['text "errored" (a job status), 365 d', (db) => results(db, { ...year, group_by: 'action_type', filterVal: 'errored' })],
    ['series 121 points, status errored, 365 d', (db) => timeSeries(db, { ...year, points: 121, ...jobRule('status', 'in', 'errored') })],
    // Job action VIDs or event counts only: the facet rollups of the classes they keep (023_reports_facet_rollups.sql).
    ['events suspicious (1 job in 7), 30 d a year ago', (db) => results(db, { ...month, group_by: 'action_type', ...eventsFilter('suspicious') })],
    ['by action, events present, 365 d', (db) => results(db, { ...year, group_by: 'action', ...eventsFilter('present') })],
    ['Action VID filter, 365 d', async (db) => results(db, { ...year, group_by: 'action_type', vid: await someAction(db) })],
    ['series 121 points, Action VID filter, 365 d', async (db) => timeSeries(db, { ...year, points: 121, vid: await someAction(db) })],
    ['rule "job action VID in", 30 d a year ago', async (db) => results(db, { ...month, group_by: 'action_type', ...rule('job_action', 'vid', 'in', [await someAction(db)]) })],
    ['rule "job action events in 3" (44% of jobs), 365 d', (db) => results(db, { ...year, group_by: 'action_type', ...rule('job_action', 'events', 'in', '3') })],
    // Job ids and other job action fields are not a class's: the jobs they keep are read raw (fast when they are few).
    ['text "400123" (a job id), 365 d', (db) => results(db, { ...year, group_by: 'action_type', filterVal: '400123' })],
    ['rule "job id in 400000-401000", 365 d', (db) => results(db, { ...year, group_by: 'action_type', ...jobRule('id', 'in', '400000-401000') })],
    // Days of the week (MON-051 repeat_week_days) are local days, not the rollups' UTC slices: read raw.
    ['results, days M-F (Europe/Paris), 30 d a year ago', (db) => results(db, { ...month, group_by: 'action_type', ...WORKING_DAYS })],
    ['results, days M-F (Europe/Paris), 365 d', (db) => results(db, { ...year, group_by: 'action_type', ...WORKING_DAYS })],
    ['series 121 points, days M-F, 365 d', (db) => timeSeries(db, { ...year, points: 121, ...WORKING_DAYS })],
    ['time series 121 points, 365 days', (db) => timeSeries(db, { ...year, points: 121 })],
    ['time series 481 points, 365 days', (db) => timeSeries(db, { ...year, points: 481 })],
    ['mitre_taam_data, 365 days', (db) => mitreTaam(db, year)],
    ['tree map by action, 365 days', (db) => treeMap(db, { ...year, group_by: 'action' })],
    ['ATT&CK matrix, 365 days', (db) => mitreMatrix(db, year)],
    ['untested techniques, 30 days a year ago', (db) => untestedTechniques(db, month)],
    ['9-panel dashboard in one call, 30 days', (db) => panelAnswers(db, { queries: ninePanels(now) })],
  ];
  return list;
}

/** The distinct queries of a dashboard with one panel of each kind over the last 30 days (POST /reports/panels.json). */
function ninePanels(now: number) {
  const panels: DashboardPanel[] = [];
  for (const kind of PANEL_KINDS) panels.push(newPanel(kind, panels));
  return dashboardRequests({ panels, time_range: { rangeType: 'rel', relBackCount: 30, relUnit: 'day', start: null, end: null } }, new Date(now)).queries;
}

interface Figures {
  samples: number[];
  cpu: number[];
}

/** One call's samples (wall and this process's CPU time), after 2 warm-up calls. */
async function sample(db: Db, call: Scenario[1]): Promise<Figures> {
  for (let i = 0; i < 2; i++) await call(db);
  const samples: number[] = [];
  const cpu: number[] = [];
  const began = performance.now();
  for (let i = 0; i < RUNS && (i < 3 || performance.now() - began < SCENARIO_BUDGET_MS); i++) {
    const c = process.cpuUsage();
    samples.push((await time(() => call(db)))[1]);
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { samples, cpu };
}

/**
 * Every call on PGlite and, with a PostgreSQL database (`npm run bench:reports:pg`), on PostgreSQL too,
 * printed side by side. PostgreSQL runs in its own processes: its CPU time is not this process's, so
 * only wall times are given for it.
 */
async function aggregationFigures(dataDir: string, pg: { db: Db; version: string } | null): Promise<void> {
  const db = await openPglite(dataDir);
  try {
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from job_actions');
    console.log(`\nReport calls in-process, ${n.toLocaleString('en-US')} job actions, ${RUNS} calls each after 2 warm-up calls (fewer when a call takes over ${SCENARIO_BUDGET_MS / 1000} s in all), milliseconds:`);
    // cpu: this process's CPU time per call (PGlite runs in-process), the figure a shared machine's load changes least.
    const pgHead = pg ? `  | PostgreSQL ${pg.version}: ${'n'.padStart(3)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}` : '';
    console.log(`${'call'.padEnd(48)} PGlite: ${'n'.padStart(3)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'cpu p50'.padStart(8)} ${'cpu p99'.padStart(8)}${pgHead}  goal p99 <= 100`);
    const all: number[] = [];
    const allPg: number[] = [];
    for (const [label, call] of scenarios().filter(([label]) => CALLS.test(label))) {
      const { samples, cpu } = await sample(db, call);
      all.push(...samples);
      const p99 = percentile(samples, 99);
      const cols = [percentile(samples, 50), percentile(samples, 95), p99, percentile(cpu, 50), percentile(cpu, 99)].map((x) => ms(x).padStart(8)).join(' ');
      let pgCols = '';
      let met = p99 <= 100 ? 'met' : 'missed';
      if (pg) {
        const f = await sample(pg.db, call);
        allPg.push(...f.samples);
        const q = percentile(f.samples, 99);
        pgCols = `  | ${' '.repeat(pg.version.length + 13)}${String(f.samples.length).padStart(3)} ${ms(percentile(f.samples, 50)).padStart(8)} ${ms(q).padStart(8)}`;
        met += q <= 100 ? ' / met' : ' / missed';
      }
      console.log(`${label.padEnd(48)}         ${String(samples.length).padStart(3)} ${cols}${pgCols}  ${met}`);
    }
    all.sort((a, b) => a - b);
    allPg.sort((a, b) => a - b);
    console.log(`all report calls on PGlite: p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, p99 ${ms(percentile(all, 99))} (${load()})`);
    if (pg) console.log(`all report calls on PostgreSQL: p50 ${ms(percentile(allPg, 50))}, p95 ${ms(percentile(allPg, 95))}, p99 ${ms(percentile(allPg, 99))} (${load()})`);
  } finally {
    await db.close();
  }
}

/**
 * With TEST_DATABASE_URL (`npm run bench:reports:pg`, scripts/with-test-postgres.sh): a fresh database on
 * that server, seeded as the PGlite one (bench/seed-jobs.ts), dropped afterwards.
 */
async function seededPostgres(): Promise<{ db: Db; version: string; drop: () => Promise<void> } | null> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return null;
  const name = `vigil_reports_bench_${process.pid}`;
  const admin = await openPostgres(server);
  await admin.exec(`create database ${name}`);
  const [{ server_version: version } = { server_version: '' }] = await admin.query<{ server_version: string }>('show server_version');
  const u = new URL(server);
  u.pathname = `/${name}`;
  const db = await openPostgres(u.toString());
  console.log(`\nSeeding ${JOBS.toLocaleString('en-US')} jobs into PostgreSQL ${version} (database ${name})…`);
  const [, t] = await time(() => seedJobsInto(db, JOBS));
  console.log(`seeded in ${(t / 1000).toFixed(0)} s`);
  return {
    db,
    version,
    drop: async () => {
      await db.close();
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 3. The PDF document in Node

function pdfFigures(): void {
  const rows = Array.from({ length: 40 }, (_, i) => [`Group ${i + 1}`, 1000 + i, 800 - i, 150, 30, 20, `${80 - (i % 9)}%`]);
  const sections: ReportSection[] = Array.from({ length: 12 }, (_, i) => ({ title: `Panel ${i + 1}`, image: null, table: { columns: ['Group', 'Total', 'Prevented', 'Detected', 'Alerts', 'Missed', 'Prevented %'], rows } }));
  const samples: number[] = [];
  let pages = 0;
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const pdf = buildReportPdf({ title: 'Bench report', subtitle: 'Last 365 days', sections });
    pdf.output('arraybuffer');
    samples.push(performance.now() - t);
    pages = pdf.getNumberOfPages();
  }
  samples.sort((a, b) => a - b);
  console.log(`\nReport PDF in Node (jsPDF, ${pages} pages of tables, no images), 10 builds: p50 ${ms(percentile(samples, 50))} ms, max ${ms(samples[samples.length - 1]!)} ms (${load()})`);
}

// ---------------------------------------------------------------------------------------------
// 4. Browser

async function api<T>(base: string, cookie: string, csrf: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(base + url, { method, headers: { cookie, 'content-type': 'application/json', accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': csrf }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Waits until every panel of the open dashboard shows its drawing (or table); resolves with performance.now() at the next frame. */
const allDrawn = (page: Page, count: number) =>
  page.evaluate(
    (n) =>
      new Promise<number>((resolve) => {
        const done = () => {
          const charts = [...document.querySelectorAll('[data-dashboard] [data-chart]')];
          return charts.length === n && charts.every((c) => c.querySelector('svg, canvas, table') && !/Loading/.test(c.textContent ?? ''));
        };
        const check = () => (done() ? requestAnimationFrame(() => resolve(performance.now())) : setTimeout(check, 10));
        check();
      }),
    count,
  );

/** Where the time of one dashboard load went: the page's requests from navigation start (ms), in start order. */
async function waterfall(page: Page, drawnAt: number): Promise<string> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
  );
  const nav = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? 0);
  const short = (u: string) => {
    const url = new URL(u);
    return url.pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '.js') + (url.pathname.includes('/reports/') && url.search ? '?…' : '');
  };
  const rows = entries.filter((e) => !/\.(woff2?|png|svg|ico)$/.test(new URL(e.name).pathname)).sort((a, b) => a.start - b.start);
  return [`document 0-${ms(nav)}`, ...rows.map((e) => `${short(e.name)} ${ms(e.start)}-${ms(e.end)}`), `all drawn ${ms(drawnAt)}`].join('\n    ');
}

/** CPU time (ms) of a process so far, from /proc (Linux): the director's share of a browser figure. */
const processCpu = (pid: number): number => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
};

/** The page's main-thread busy time (ms) since its document started (CDP TaskDuration): the browser's CPU time, which the machine's load changes far less than the wall clock. */
async function rendererBusy(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN) * 1000;
}

interface Figure {
  t: number;
  /** The page's main thread busy (ms). */
  renderer: number;
  /** The director's CPU time (ms). */
  director: number;
}
const figures = (list: Figure[], extra: (i: number) => string = () => '') => list.map((f, i) => `${ms(f.t)} ms${extra(i)} (main thread ${ms(f.renderer)}, director CPU ${ms(f.director)})`).join(', ');

async function exportPdf(page: Page, cdp: CDPSession, pid: number): Promise<Figure & { pages: number }> {
  const download = page.waitForEvent('download', { timeout: 180_000 });
  const busy = await rendererBusy(cdp);
  const cpu = processCpu(pid);
  const t = performance.now();
  await page.getByRole('toolbar', { name: 'Dashboard actions' }).getByRole('button', { name: 'Export PDF' }).click();
  const file = await download;
  const took = performance.now() - t;
  const renderer = (await rendererBusy(cdp)) - busy;
  const director = processCpu(pid) - cpu;
  const bytes = fs.readFileSync((await file.path())!);
  return { t: took, renderer, director, pages: (bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length };
}

async function browserFigures(director: Director): Promise<void> {
  const res = await fetch(`${director.url}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrf_token } = (await res.json()) as { csrf_token: string };
  const panels: DashboardPanel[] = [];
  for (const kind of PANEL_KINDS) panels.push(newPanel(kind, panels));
  // The dashboards' default range (last 30 days): the newest jobs, found through the job_time index among 1M.
  const time_range = { rangeType: 'rel', relBackCount: 30, relUnit: 'day', start: null, end: null };
  const d = await api<{ id: number }>(director.url, cookie, csrf_token, 'POST', '/dashboards.json', { name: 'Bench nine panels', panels, time_range });
  // A report of 20 pages: 20 panels (the nine kinds in turn), one section a page.
  const twenty: DashboardPanel[] = [];
  for (let i = 0; i < 20; i++) twenty.push(newPanel(PANEL_KINDS[i % PANEL_KINDS.length]!, twenty));
  const d20 = await api<{ id: number }>(director.url, cookie, csrf_token, 'POST', '/dashboards.json', { name: 'Bench twenty panels', panels: twenty, time_range });

  const browser = await launchBrowser();
  try {
    const { page, context } = await openPage(browser, director.url);
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const drawn: Figure[] = [];
    let lastWaterfall = '';
    for (let i = 0; i < 4; i++) {
      const cpu = processCpu(director.pid);
      await page.goto(`/dashboards/${d.id}`);
      const t = await allDrawn(page, PANEL_KINDS.length);
      // The main thread's busy time counts from this document's start (the metrics restart with it).
      if (i > 0) drawn.push({ t, renderer: await rendererBusy(cdp), director: processCpu(director.pid) - cpu });
      if (i === 3) lastWaterfall = await waterfall(page, t);
    }
    console.log(`\nChromium ${browser.version()} (headless, no GPU), built workbench, 9-panel dashboard over the last 30 days (${load()}):`);
    console.log(`  navigation start -> all 9 panels drawn, 3 loads: ${figures(drawn)} (goal <= 1000)`);
    console.log(`  the last load's requests (ms from navigation start):\n    ${lastWaterfall}`);
    const exports: (Figure & { pages: number })[] = [];
    for (let i = 0; i < 3; i++) exports.push(await exportPdf(page, cdp, director.pid));
    console.log(`  PDF export of the 9-panel dashboard (click -> download): ${figures(exports, (i) => `, ${exports[i]!.pages} pages`)} (${load()})`);
    await page.goto(`/dashboards/${d20.id}`);
    await allDrawn(page, twenty.length);
    const long: (Figure & { pages: number })[] = [];
    for (let i = 0; i < 3; i++) long.push(await exportPdf(page, cdp, director.pid));
    console.log(`  PDF export of a 20-panel dashboard (click -> download): ${figures(long, (i) => `, ${long[i]!.pages} pages`)} (goal <= 5000 for 20 pages; ${load()})`);
  } finally {
    await browser.close();
  }
}

/**
 * REPORTS_BENCH_ONLY=pg (with `npm run bench:reports:pg`): the report calls on PostgreSQL alone, no PGlite
 * database seeded or read (while a PGlite run of the same calls goes on elsewhere).
 */
async function postgresOnly(): Promise<void> {
  const pg = await seededPostgres();
  if (!pg) return console.log('REPORTS_BENCH_ONLY=pg needs TEST_DATABASE_URL (npm run bench:reports:pg)');
  try {
    console.log(`\nReport calls on PostgreSQL ${pg.version} alone, ${RUNS} calls each after 2 warm-up calls, milliseconds (wall):`);
    console.log(`${'call'.padEnd(48)} ${'n'.padStart(3)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)}  goal p99 <= 100`);
    for (const [label, call] of scenarios().filter(([l]) => CALLS.test(l))) {
      const { samples } = await sample(pg.db, call);
      const p99 = percentile(samples, 99);
      const cols = [percentile(samples, 50), percentile(samples, 95), p99].map((x) => ms(x).padStart(8)).join(' ');
      console.log(`${label.padEnd(48)} ${String(samples.length).padStart(3)} ${cols}  ${p99 <= 100 ? 'met' : 'missed'} (${load()})`);
    }
  } finally {
    await pg.drop();
  }
}

async function main(): Promise<void> {
  if (ONLY === 'pg') return postgresOnly();
  const staticDir = process.env.VIGIL_BENCH_STATIC_DIR || path.join(REPO_ROOT, 'dist');
  await withSeededJobs({ jobs: JOBS, keep: process.env.REPORTS_BENCH_DATA_DIR, name: 'reports', detail: ' (two action results each)' }, async (dataDir) => {
    let director: Director | null = null;
    try {
      if (ONLY !== 'browser') {
        const pg = await seededPostgres();
        try {
          await aggregationFigures(dataDir, pg);
        } finally {
          await pg?.drop();
        }
        pdfFigures();
      }
      if (ONLY === 'calls') return;
      if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
        console.log(`\nno built workbench in ${staticDir}: browser figures skipped (npm run build)`);
        return;
      }
      director = await startDirector({ DATA_DIR: dataDir, STATIC_DIR: staticDir, SEED: 'none' });
      await browserFigures(director).catch((e: unknown) => console.log(`\nbrowser figures failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`));
    } finally {
      await director?.stop();
    }
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
