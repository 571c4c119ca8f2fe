import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, signInThroughForm as signIn } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, REPO_ROOT, startDirector, type Director } from '../e2e/director';
import { openPglite, type Db } from '../server/db/index';
import { listJobs, parseListQuery } from '../server/jobs/list-query';
import { getJob, getStepActions } from '../server/jobs/service';
import { withSeededJobs } from './seed-jobs';
import { get, login, measure, ms, scenarios, sequential, summaryLine, type Get } from './jobs-calls';
import { profileArgs } from './proc-cpu';
import { percentile } from './stats';

/**
 * Jobs at 1,000,000 rows (issue 7):
 *  1. seeds a temporary PGlite database: the demo content, then bulk jobs up to JOBS in all, each with a
 *     step and two action results (insert ... select from generate_series, indexes built afterwards);
 *  2. starts the real director on it and times the jobs calls over HTTP: each scenario alone (p50/p99),
 *     then all of them mixed from CONCURRENCY clients at once;
 *  3. in Chromium against the built workbench: time to the first rows of the Jobs pane, next-page time,
 *     and frame times while scrolling a page of 30 expanded jobs.
 * Under load each run also prints the CPU time a call costs the director and the load generator
 * (BENCH_CPU_PROF=DIR: the director's CPU profile). Figures are printed; nothing is asserted. JOBS_BENCH_ROWS, JOBS_BENCH_CONCURRENCY (8,32),
 * JOBS_BENCH_DATA_DIR (keep and reuse the seeded database) and VIGIL_BENCH_STATIC_DIR (another build of
 * the workbench) change the defaults.
 */

const JOBS = Number(process.env.JOBS_BENCH_ROWS || 1_000_000);

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

async function dbFigures(dataDir: string): Promise<void> {
  const db = await openPglite(dataDir);
  try {
    const get = inProcess(db);
    await sequential('Embedded database (PGlite), the list handler called in-process, one call at a time', get, await scenarios(get));
  } finally {
    await db.close();
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
  const staticDir = process.env.VIGIL_BENCH_STATIC_DIR || path.join(REPO_ROOT, 'dist');
  await withSeededJobs({ jobs: JOBS, keep: process.env.JOBS_BENCH_DATA_DIR, name: 'jobs' }, async (dataDir) => {
    let director: Director | null = null;
    try {
      await dbFigures(dataDir);
      director = await startDirector({ DATA_DIR: dataDir, STATIC_DIR: staticDir, SEED: 'none' }, { nodeArgs: profileArgs() });
      const s = await login(director.url);
      const figures = await measure(director.url, s, await scenarios((p) => get(director!.url + p, s)), { pid: director.pid });
      console.log(`\nPGlite, ${JOBS.toLocaleString('en-US')} jobs, the director over HTTP:`);
      for (const f of figures) console.log(`  ${summaryLine(f)}`);
      if (fs.existsSync(path.join(staticDir, 'index.html'))) await browserFigures(director).catch((e: unknown) => console.log(`\nbrowser figures failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`));
      else console.log(`\nno built workbench in ${staticDir}: browser figures skipped (npm run build)`);
    } finally {
      await director?.stop();
    }
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
