import { launchBrowser, openPage, throttle, startPaneHeading, workbenchReady } from '../../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector } from '../../e2e/director';
import fs from 'node:fs';
const director = await startDirector();
const browser = await launchBrowser();
try {
  for (let i = 0; i < 2; i++) {
    const { page, context } = await openPage(browser, director.url);
    context.setDefaultTimeout(60_000);
    const cdp = await throttle(page);
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(6000);
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const t0 = performance.now();
    let resp = 0;
    page.on('requestfinished', (r) => { if (r.url().includes('sign_in.json')) resp = performance.now() - t0; });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await startPaneHeading(page).waitFor();
    await workbenchReady(page).waitFor();
    const usable = performance.now() - t0;
    const { profile } = await cdp.send('Profiler.stop') as any;
    console.log(`response ${resp.toFixed(0)} usable ${usable.toFixed(0)}`);
    // self time by function
    const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
    const self = new Map<number, number>();
    const dt = profile.timeDeltas as number[];
    profile.samples.forEach((id: number, k: number) => self.set(id, (self.get(id) ?? 0) + (dt[k + 1] ?? 0)));
    const agg = new Map<string, number>();
    for (const [id, us] of self) { const n: any = byId.get(id); const f = n.callFrame; const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`; agg.set(key, (agg.get(key) ?? 0) + us); }
    const total = [...agg.values()].reduce((a, b) => a + b, 0);
    console.log('total sampled ms', (total / 1000).toFixed(0));
    for (const [k, us] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((us / 1000).toFixed(1).padStart(7), k);
    fs.writeFileSync(`/tmp/operator/signin-${i}.cpuprofile`, JSON.stringify(profile));
    await context.close();
  }
} finally {
  await browser.close();
  await director.stop();
}
