/**
 * What the browser tests' fixed costs are, in CPU seconds (firm on a loaded machine, unlike wall time):
 * a director's start from a copy of the seeded demo install, with tsx and from the run's bundle
 * (e2e/director.ts; a file with a director of its own pays it once) and a screenshot (viewport and full page; the Chromium processes and the test
 * process). `npm run bench:e2e-costs` (needs `npm run build`).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import { launchBrowser, openPage, signInThroughForm } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DIRECTOR_BUNDLE_VARIABLE, SEEDED_DIR_VARIABLE, bundleDirector, seedDataDir, startDirector } from '../e2e/director';

function cpuOf(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of this process's descendants (the browser and its renderers, ...), except `skip` and its own. */
function descendantsCpu(skip: number): number {
  const rows = execSync('ps -e -o pid=,ppid=').toString().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of rows) {
      if (mine.has(pid!) || !mine.has(ppid!) || pid === skip) continue;
      mine.add(pid!);
      grew = true;
    }
  }
  mine.delete(process.pid);
  return [...mine].reduce((t, pid) => t + cpuOf(pid), 0);
}

console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
const seeded = await seedDataDir();
process.env[SEEDED_DIR_VARIABLE] = seeded;
const bundle = await bundleDirector();
// The e2e run's directors run the bundle (e2e/global-setup.ts); tsx for comparison.
for (const how of ['tsx', 'bundle'] as const) {
  if (how === 'bundle') process.env[DIRECTOR_BUNDLE_VARIABLE] = bundle;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const d = await startDirector();
    console.log(`director start (${how === 'tsx' ? 'tsx' : 'the run\'s bundle'}, copy of the seeded install): ${Date.now() - t0} ms wall, ${cpuOf(d.pid).toFixed(2)} s of CPU until it listens`);
    await d.stop();
  }
}
const d = await startDirector();
const browser = await launchBrowser();
const { page } = await openPage(browser, d.url);
await signInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs');
await page.waitForTimeout(3000);
for (const fullPage of [false, true]) {
  const before = descendantsCpu(d.pid);
  const self = process.cpuUsage();
  const n = 10;
  for (let i = 0; i < n; i++) await page.screenshot({ path: `${seeded}-shot.png`, fullPage });
  const own = process.cpuUsage(self);
  console.log(`screenshot, ${fullPage ? 'full page' : 'viewport'}: ${((descendantsCpu(d.pid) - before) / n).toFixed(3)} s of Chromium CPU and ${((own.user + own.system) / 1e6 / n).toFixed(3)} s of test-process CPU each`);
}
await browser.close();
await d.stop();
await fs.promises.rm(seeded, { recursive: true, force: true });
await fs.promises.rm(`${seeded}-shot.png`, { force: true });
await fs.promises.rm(bundle, { force: true });
console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
