import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, signInThroughForm as signIn } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, REPO_ROOT, startDirector } from '../e2e/director';
import { printTable, summarize } from './stats';

/**
 * Command palette with 10,000 extra commands in 20 categories, in Chromium against the built app:
 *  - open: from the Ctrl+K keydown (the event's own timestamp) to the first frame after the listbox
 *    and its options are in the DOM; 20 times, Escape between;
 *  - filter: per keystroke of 6-character queries, from the input event to the first frame after the
 *    palette re-rendered.
 * Figures are printed; nothing is asserted.
 */

const EXTRA_COMMANDS = 10_000;
const OPEN_RUNS = 20;
const FILTER_ROUNDS = 3;
const QUERIES = ['deploy', 'export', 'netwac', 'agent9', 'sch mo', 'qqqqqq'];
const CATEGORIES = ['Actions', 'Jobs', 'Simulations', 'Evaluations', 'Sequences', 'Actors', 'Monitors', 'Reports', 'Dashboards', 'Topology', 'Integrations', 'Tags', 'Files', 'Packet Captures', 'Accounts', 'Settings', 'Scripts', 'Queue', 'Approvals', 'MITRE'];
const VERBS = ['Open', 'Run', 'Deploy', 'Inspect', 'Export', 'Archive', 'Schedule', 'Validate', 'Clone', 'Compare'];
const NOUNS = ['Network Action', 'Host Action', 'Evaluation', 'Sequence', 'Report', 'Actor', 'Monitor', 'Dashboard', 'Job Result', 'Agent Token', 'Email Profile', 'Zone'];

interface OpenSample {
  dom: number;
  frame: number;
}
interface FilterSample {
  query: string;
  commit: number | null;
  frame: number;
  count: number;
}
interface BenchState {
  keydownAt: number;
  open: Promise<OpenSample> | null;
  samples: FilterSample[];
}
interface BenchWindow {
  __bench: BenchState;
  vigil: { commands: { register(c: { id: string; title: string; category: string; run(): void }): () => void } };
}

function ensureBuilt(): void {
  if (fs.existsSync(path.join(REPO_ROOT, 'dist', 'index.html'))) return;
  console.log('dist/ is missing: building it (npm run build)…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

/** The palette's footer count ("10,034 commands" is printed as "10034 commands"). */
async function paletteCount(page: Page): Promise<number> {
  return Number.parseInt(await page.getByText(/^\d+ commands?$/).innerText(), 10);
}

async function installRecorders(page: Page): Promise<void> {
  // tsx (esbuild keepNames) wraps named inner functions in __name(...): give the page that helper, since
  // the functions passed to page.evaluate are sent as their transformed source.
  await page.evaluate('globalThis.__name = globalThis.__name || ((fn) => fn)');
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.__bench = { keydownAt: 0, open: null, samples: [] };
    // Capture phase on window: runs alongside the workbench's hotkey listener (stopPropagation there
    // does not stop listeners on the same target). timeStamp is when the browser created the event.
    window.addEventListener('keydown', (e) => e.ctrlKey && e.code === 'KeyK' && (w.__bench.keydownAt = e.timeStamp), true);
    document.addEventListener(
      'input',
      (e) => {
        const input = e.target;
        if (!(input instanceof HTMLInputElement) || input.getAttribute('aria-label') !== 'Command palette') return;
        const t0 = e.timeStamp;
        const body = input.parentElement ?? document.body;
        let commit = -1;
        const observer = new MutationObserver(() => (commit = performance.now()));
        observer.observe(body, { childList: true, subtree: true, characterData: true });
        requestAnimationFrame(() => {
          observer.disconnect();
          const footer = [...body.querySelectorAll('span')].find((s) => /^\d+ commands?$/.test(s.textContent ?? ''));
          w.__bench.samples.push({ query: input.value, commit: commit < 0 ? null : commit - t0, frame: performance.now() - t0, count: Number.parseInt(footer?.textContent ?? '-1', 10) });
        });
      },
      true,
    );
  });
}

async function measureOpen(page: Page, runs: number): Promise<OpenSample[]> {
  const samples: OpenSample[] = [];
  const listbox = page.getByRole('listbox', { name: 'Commands' });
  for (let i = 0; i < runs; i++) {
    await page.evaluate(() => {
      const w = window as unknown as BenchWindow;
      w.__bench.keydownAt = 0;
      w.__bench.open = new Promise<OpenSample>((resolve) => {
        const ready = () => !!document.querySelector('[role="listbox"][aria-label="Commands"] [role="option"]');
        const finish = () => {
          const dom = performance.now();
          requestAnimationFrame(() => {
            const start = w.__bench.keydownAt;
            resolve({ dom: dom - start, frame: performance.now() - start });
          });
        };
        const observer = new MutationObserver(() => {
          if (!ready()) return;
          observer.disconnect();
          finish();
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.keyboard.press('Control+k');
    samples.push(await page.evaluate(() => (window as unknown as BenchWindow).__bench.open as Promise<OpenSample>));
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'detached' });
    await page.waitForTimeout(50);
  }
  return samples;
}

async function measureFilter(page: Page): Promise<FilterSample[]> {
  const listbox = page.getByRole('listbox', { name: 'Commands' });
  await page.evaluate(() => ((window as unknown as BenchWindow).__bench.samples = []));
  let expected = 0;
  for (let round = 0; round < FILTER_ROUNDS; round++) {
    for (const query of QUERIES) {
      await page.keyboard.press('Control+k');
      await listbox.waitFor({ state: 'visible' });
      for (const ch of query) {
        expected++;
        await page.keyboard.type(ch);
        await page.waitForFunction((n) => (window as unknown as BenchWindow).__bench.samples.length >= n, expected);
      }
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'detached' });
    }
  }
  return page.evaluate(() => (window as unknown as BenchWindow).__bench.samples);
}

async function main(): Promise<void> {
  ensureBuilt();
  const director = await startDirector();
  const browser = await launchBrowser();
  try {
    const { page } = await openPage(browser, director.url);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await installRecorders(page);

    await page.keyboard.press('Control+k');
    const baseCount = await paletteCount(page);
    await page.keyboard.press('Escape');
    const baseline = await measureOpen(page, OPEN_RUNS);

    const registerMs = await page.evaluate(
      ({ n, categories, verbs, nouns }) => {
        const w = window as unknown as BenchWindow;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          const title = `${verbs[i % verbs.length]} ${nouns[Math.floor(i / verbs.length) % nouns.length]} ${i}`;
          w.vigil.commands.register({ id: `bench.cmd${i}`, title, category: categories[i % categories.length] ?? 'Bench', run() {} });
        }
        return performance.now() - t0;
      },
      { n: EXTRA_COMMANDS, categories: CATEGORIES, verbs: VERBS, nouns: NOUNS },
    );

    await page.keyboard.press('Control+k');
    const entries = await paletteCount(page);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'Commands' }).waitFor({ state: 'detached' });

    const open = await measureOpen(page, OPEN_RUNS);
    const filter = await measureFilter(page);
    const firstChar = filter.filter((s) => s.query.length === 1);
    const commits = filter.map((s) => s.commit).filter((x): x is number => x !== null);

    console.log(`Chromium ${browser.version()}; ${entries.toLocaleString('en-US')} palette entries (${baseCount} built in + ${EXTRA_COMMANDS.toLocaleString('en-US')} synthetic in ${CATEGORIES.length} categories)`);
    console.log(`registering ${EXTRA_COMMANDS.toLocaleString('en-US')} commands took ${registerMs.toFixed(0)} ms`);
    printTable('', [
      [`open, ${baseCount} commands: keydown -> frame`, summarize(baseline.map((s) => s.frame))],
      [`open, ${entries} commands: keydown -> listbox in DOM`, summarize(open.map((s) => s.dom))],
      [`open, ${entries} commands: keydown -> frame`, summarize(open.map((s) => s.frame))],
      ['filter keystroke: input -> DOM updated', summarize(commits)],
      ['filter keystroke: input -> frame', summarize(filter.map((s) => s.frame))],
      ['filter 1st char: input -> frame', summarize(firstChar.map((s) => s.frame))],
    ]);
    const perQuery = QUERIES.map((q) => {
      const last = filter.find((s) => s.query === q);
      return `${JSON.stringify(q)}: ${last?.count ?? '?'}`;
    });
    console.log(`matches after the 6th character: ${perQuery.join(', ')}`);
  } finally {
    await browser.close();
    await director.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
