import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { ensureAdmin } from '../server/seed/users';
import { seedDemo } from '../server/seed/demo';
import { cloneActions } from './seed-actions';
import { launchBrowser, openPage, signInThroughForm as signIn } from '../e2e/chromium';
import { REPO_ROOT, freePort } from '../e2e/director';
import { percentile } from './stats';
import { cpuMeters, cpuPerCall, profileArgs } from './proc-cpu';
import { timedRequest } from './http-client';

/**
 * The Action library at 100,000 Actions on the embedded database (PGlite in a temporary directory), or
 * on PostgreSQL (`npm run bench:library:pg`: a fresh database of TEST_DATABASE_URL's server, a private
 * cluster started by scripts/with-test-postgres.sh when it is unset; BENCH_BROWSER=0 skips Chromium):
 *  - director: p50/p95/p99 latency of the list, filter and legacy page calls over real HTTP, one at a
 *    time and under concurrent load (closed loops of 1, 4 and 10 clients, SAMPLES answers per call);
 *  - reference: what a plain SQL substring search costs on the same data (why the list filters in memory);
 *  - browser (Chromium, the built workbench): time to first rows of the library pane, per-keystroke
 *    input-to-frame time in the search box, and debounce-end-to-rows time of a search.
 * Under load it also prints the CPU time a call costs the director (its process), PostgreSQL (the local
 * cluster's processes) and the load generator (this process): the figures a busy machine changes least.
 * BENCH_CPU_PROF=DIR writes the director's CPU profile there (node --cpu-prof) when it stops.
 * Figures are printed; nothing is asserted.
 */

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 100_000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,4,10').split(',').map(Number);
/** Answers per call kind at each concurrency. */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const EMAIL = 'bench-admin@example.com';
const PASSWORD = 'bench-Passw0rd-library';
const SEARCHES = ['mimikatz', 'variant 4217', 'finance hosts', 'T1059', 'cobalt', 'zzzz-no-match', 'a501-', 'powershell'];

async function seed(db: Db): Promise<void> {
  await migrate(db);
  await ensureAdmin(db, EMAIL, PASSWORD);
  await seedDemo(db, { jobs: 400 });
  const { base } = await cloneActions(db, ACTIONS);
  await db.query(`insert into action_tags (action_id, tag_id) select a.id, at.tag_id from actions a join action_tags at on at.action_id = ((a.id - 1) % $1::int) + 1 where a.id > $1::int`, [base]);
  await db.query(
    `insert into action_tags (action_id, tag_id) select a.id, t.id from actions a cross join (select id from tags where name = 'Priority:High') t
      where a.id > $1::int and a.id % 7 = 0 on conflict do nothing`,
    [base],
  );
  await db.query(
    `insert into action_dimensions (action_id, dimension_type, dimension_id)
     select a.id, ad.dimension_type, ad.dimension_id from actions a join action_dimensions ad on ad.action_id = ((a.id - 1) % $1::int) + 1 where a.id > $1::int`,
    [base],
  );
  await db.query(
    `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status)
     select ja.job_step_id, ja.job_id, a.id, 99, a.vid, a.name, a.action_type, ja.status
       from actions a join lateral (select * from job_actions x where x.action_id = ((a.id - 1) % $1::int) + 1 order by x.id limit 1) ja on true
      where a.id > $1::int and a.id % 5 = 0`,
    [base],
  );
  await db.query('analyze');
}

interface Sample {
  name: string;
  ms: number;
  status: number;
}

function row(name: string, xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-').padStart(8);
  return `${name.padEnd(46)} ${String(s.length).padStart(6)} ${f(percentile(s, 50))} ${f(percentile(s, 95))} ${f(percentile(s, 99))} ${f(s[s.length - 1] ?? NaN)}`;
}
const HEAD = `${'measure (ms)'.padEnd(46)} ${'n'.padStart(6)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`;

async function main(): Promise<void> {
  const withBrowser = process.env.BENCH_BROWSER !== '0';
  if (withBrowser && !fs.existsSync(path.join(REPO_ROOT, 'dist', 'index.html'))) {
    console.log('dist/ is missing: building it (npm run build)…');
    if (spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' }).status !== 0) throw new Error('npm run build failed');
  }
  // BENCH_DATA_DIR keeps the seeded database between runs (seeding 100,000 Actions takes a while).
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-library-'));
  fs.mkdirSync(dataDir, { recursive: true });
  // On PostgreSQL (`npm run bench:library:pg`): a fresh database of TEST_DATABASE_URL's server, dropped afterwards.
  // With BENCH_DATA_DIR the PostgreSQL database is kept too (vigil_library_bench_kept) and reused when seeded.
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgres(process.env.TEST_DATABASE_URL, !!keep) : null;
  const db = pg ? await openPostgres(pg.url) : await openPglite(dataDir);
  let t0 = Date.now();
  const seeded = keep && (await db.query<{ n: number }>(`select count(*)::int as n from pg_tables where tablename = 'actions'`))[0]?.n
    ? ((await db.query<{ n: number }>('select count(*)::int as n from actions'))[0]?.n ?? 0) >= ACTIONS
    : false;
  if (!seeded) await seed(db);
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from actions');
  const [{ t } = { t: 0 }] = await db.query<{ t: number }>('select count(*)::int as t from action_tags');
  const where = pg ? `PostgreSQL ${pg.version} (database ${pg.name})` : `PGlite in ${dataDir}`;
  console.log(`${seeded ? 'reused' : 'seeded'} ${n.toLocaleString('en-US')} Actions (${t.toLocaleString('en-US')} tag links) in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${where}`);
  if (process.env.BENCH_SEED_ONLY) {
    await db.close();
    return;
  }

  // Reference: the substring search done in SQL (what the in-memory index replaces).
  const sqlTimes: number[] = [];
  for (const term of SEARCHES) {
    const s = performance.now();
    await db.query(`select count(*) from actions where not disabled and position($1 in lower(vid || ' ' || name || ' ' || description || ' ' || action_type)) > 0`, [term]);
    sqlTimes.push(performance.now() - s);
  }

  const dimIds = (await db.query<{ id: number }>(`select id from dimensions where type = 'behavior_type' and parent_id is not null order by id limit 6`)).map((d) => d.id);
  // The director runs in its own process (as in production), so the load generator does not share its CPU.
  await db.close();
  const director = await startDirectorOn(dataDir, pg?.url, withBrowser);
  const base = director.url;
  // BENCH_BROWSER=0: the HTTP figures only.
  const browser = withBrowser ? await launchBrowser() : null;
  try {
    const signInRes = await fetch(`${base}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    const cookie = (signInRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrf_token: csrf } = (await signInRes.json()) as { csrf_token: string };
    const headers = { cookie, 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };

    // The index is built in the background at start: wait for the legacy call to stop answering 204.
    t0 = Date.now();
    while ((await fetch(`${base}/manage_sims/library_actions_list.json?page=1&size=10`, { headers })).status === 204) await new Promise((r) => setTimeout(r, 100));
    console.log(`library index ready ${((Date.now() - t0) / 1000).toFixed(1)} s after start`);

    const tags = (await (await fetch(`${base}/manage_sims/v2/actions/filters`, { headers })).json()) as { tag_groups: { tags: { id: number }[] }[] };
    const tagIds = tags.tag_groups.flatMap((g) => g.tags.map((x) => x.id));
    // Tree node ids come from the seeded dimension trees (read above).
    let k = 0;
    const pick = <T>(xs: readonly T[]) => xs[k++ % xs.length]!;
    const L = '/manage_sims/v2/actions/library_actions_list';
    const calls: { name: string; next: () => { url: string; init?: { method: string; headers: Record<string, string>; body: string } } }[] = [
      { name: 'list: first page, default sort', next: () => ({ url: `${L}?page_size=100` }) },
      { name: 'list: page 200 sorted by Last Run', next: () => ({ url: `${L}?page_size=100&page_number=200&sort=last_run` }) },
      { name: 'list: search (literal, 8 terms)', next: () => ({ url: `${L}?page_size=100&search=${encodeURIComponent(pick(SEARCHES))}` }) },
      { name: 'list: search + sort + type', next: () => ({ url: `${L}?page_size=100&search=${encodeURIComponent(pick(SEARCHES))}&sort=${pick(['vid', 'updated', 'total_runs', 'modified'])}&action_types[]=${pick(['host_cli', 'dns', 'cloud'])}` }) },
      { name: 'list: 2 tags AND / OR', next: () => ({ url: `${L}?page_size=100&tags[]=${pick(tagIds)}&tags[]=${pick(tagIds)}&tag_mode=${pick(['and', 'or'])}` }) },
      { name: 'list: status Pending Files', next: () => ({ url: `${L}?page_size=100&status=pending_files` }) },
      { name: 'filters (GET /manage_sims/v2/actions/filters)', next: () => ({ url: '/manage_sims/v2/actions/filters' }) },
      { name: 'legacy page (size 1000)', next: () => ({ url: `/manage_sims/library_actions_list.json?page=${1 + (k++ % 100)}&size=1000` }) },
      {
        name: 'tree filter (POST library_actions_filter.json)',
        next: () => ({
          url: '/manage_sims/library_actions_filter.json',
          init: { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': csrf } as Record<string, string>, body: JSON.stringify({ behavior_type: [pick(dimIds)] }) },
        }),
      },
    ];

    // node:http with kept-alive connections (bench/http-client.ts): fetch cost this process more CPU than the director.
    const one = async (c: (typeof calls)[number]): Promise<Sample> => {
      const { url, init } = c.next();
      const { status, ms } = await timedRequest(`${base}${url}`, { headers, ...init });
      return { name: c.name, ms, status };
    };

    // Warm-up: every call kind a few times (fills the sort orders, the result caches and the item JSON of the pages asked for).
    for (let i = 0; i < 3; i++) for (const c of calls) await one(c);

    // Closed loops of 1, 4 and 10 clients: each sends its next call as soon as the previous one answered,
    // taking the call kinds in turn, until every kind has SAMPLES answers (p99 of 200 is the 2nd slowest).
    const loop = async (clients: number) => {
      const loaded: Sample[] = [];
      let turn = 0;
      const cpu = cpuMeters(director.pid, pg?.url);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (turn < SAMPLES * calls.length) loaded.push(await one(calls[turn++ % calls.length]!));
        }),
      );
      return { loaded, seconds: (performance.now() - started) / 1000, used: cpu(), load: os.loadavg().map((x) => x.toFixed(2)).join(' ') };
    };
    const where = pg ? `PostgreSQL ${pg.version}` : 'PGlite';
    // A first pass of the same mix makes the answers the runs then ask for again (list pages, compressed
    // forms, sort orders, search results): its CPU is the cost of answers not asked for before.
    if (CONCURRENCY.some((c) => c > 1)) {
      const first = await loop(Math.max(...CONCURRENCY));
      const all = first.loaded.map((x) => x.ms);
      console.log(`\nFirst pass (answers made and kept), ${Math.max(...CONCURRENCY)} clients on ${where}: ${first.loaded.length} requests in ${first.seconds.toFixed(1)} s; load average ${first.load}`);
      console.log(`${row('all list and filter calls', all)}\n${cpuPerCall(first.used, first.loaded.length)}`);
    }
    for (const clients of CONCURRENCY) {
      const { loaded, seconds, used, load } = await loop(clients);
      const bad = loaded.filter((s) => s.status !== 200);
      const title = `${clients === 1 ? 'One call at a time' : `Under load: ${clients} concurrent clients`} on ${where}`;
      console.log(`\n${title}, ${n.toLocaleString('en-US')} Actions: ${loaded.length} requests in ${seconds.toFixed(1)} s (${(loaded.length / seconds).toFixed(0)}/s)${bad.length ? `, ${bad.length} non-200` : ''}; load average ${load}:`);
      console.log(HEAD);
      for (const c of calls) console.log(row(c.name, loaded.filter((s) => s.name === c.name).map((s) => s.ms)));
      console.log(row('all list and filter calls', loaded.map((s) => s.ms)));
      console.log(cpuPerCall(used, loaded.length));
    }
    console.log(`\nReference: the same substring search in SQL (count of matches, ${SEARCHES.length} terms):`);
    console.log(HEAD);
    console.log(row('SQL position(term in lower(...)) over actions', sqlTimes));

    // ---- Browser ----
    if (!browser) return;
    const { page } = await openPage(browser, base);
    await page.addInitScript(RECORDER);
    await signIn(page, EMAIL, PASSWORD);
    const firstRows: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto('/manage_sims/actions');
      firstRows.push(await page.evaluate(() => (window as unknown as BenchWindow).__lib.firstRows));
    }
    const keystrokes: number[] = [];
    const applied: number[] = [];
    const search = page.getByRole('searchbox', { name: 'Search Actions' });
    for (const term of SEARCHES) {
      await search.fill('');
      await page.waitForTimeout(700);
      const before = await page.getByTestId('library-count').innerText();
      await page.evaluate(() => ((window as unknown as BenchWindow).__lib.keys = []));
      for (const ch of term) {
        await page.keyboard.type(ch);
        await page.waitForTimeout(40);
      }
      await page.waitForFunction(
        (prev) => {
          const el = document.querySelector('[data-testid="library-count"]');
          const footer = el?.parentElement?.textContent ?? '';
          return !!el && !footer.includes('Filtering') && el.textContent !== prev;
        },
        before,
        { timeout: 15_000 },
      ).catch(() => undefined);
      const [doneAt, lastInput] = await page.evaluate(() => [performance.now(), (window as unknown as BenchWindow).__lib.lastInput]);
      applied.push(doneAt - lastInput - 500);
      keystrokes.push(...(await page.evaluate(() => (window as unknown as BenchWindow).__lib.keys)));
    }
    console.log(`\nBrowser (Chromium ${browser.version()}), library pane over ${n.toLocaleString('en-US')} Actions:`);
    console.log(HEAD);
    console.log(row('navigation start -> first rows painted', firstRows));
    console.log(row('search keystroke: input -> next frame', keystrokes));
    console.log(row('search: 500 ms debounce end -> new rows shown', applied));
  } finally {
    await browser?.close();
    await director.stop();
    await pg?.drop();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh database on the PostgreSQL server of `server` (a connection URL), dropped by drop(). */
async function freshPostgres(server: string, kept = false): Promise<{ url: string; name: string; version: string; drop: () => Promise<void> }> {
  const name = kept ? 'vigil_library_bench_kept' : `vigil_library_bench_${process.pid}`;
  const admin = await openPostgres(server);
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).length > 0;
  if (!exists) await admin.exec(`create database ${name}`);
  const [{ server_version: version } = { server_version: '' }] = await admin.query<{ server_version: string }>('show server_version');
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    version,
    drop: async () => {
      if (!kept) await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

/** `node --import tsx server/main.ts` on the seeded DATA_DIR (no demo seed, no local actors). */
async function startDirectorOn(dataDir: string, databaseUrl = '', workbench = true): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...profileArgs(), '--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED: 'none', ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, STATIC_DIR: workbench ? path.join(REPO_ROOT, 'dist') : 'none', DATABASE_URL: databaseUrl, LOCAL_ACTORS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the director did not start:\n${out}`)), 120_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Open http')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the director exited (${code}):\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

interface BenchWindow {
  __lib: { firstRows: Promise<number> | number; keys: number[]; lastInput: number };
}

/** Installed before the workbench runs on every page: first rows painted, and search keystroke frames. */
const RECORDER = `(() => {
  const ready = () => !!document.querySelector('[role="listbox"][aria-label="Actions"] [role="option"][data-vid]');
  const lib = { keys: [], lastInput: 0 };
  lib.firstRows = new Promise((resolve) => {
    const start = () => {
      const o = new MutationObserver(() => {
        if (!ready()) return;
        o.disconnect();
        requestAnimationFrame(() => resolve(performance.now()));
      });
      o.observe(document, { childList: true, subtree: true, attributes: true });
    };
    start();
  });
  window.__lib = lib;
  document.addEventListener('input', (e) => {
    if (!(e.target instanceof HTMLInputElement) || e.target.getAttribute('aria-label') !== 'Search Actions') return;
    const t0 = e.timeStamp;
    lib.lastInput = t0;
    requestAnimationFrame(() => lib.keys.push(performance.now() - t0));
  }, true);
})();`;

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
