import { launchBrowser, openPage, throttle, startPaneHeading, workbenchReady } from '../../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector } from '../../e2e/director';
const director = await startDirector();
const browser = await launchBrowser();
try {
  for (let i = 0; i < 2; i++) {
    const { page, context } = await openPage(browser, director.url);
    context.setDefaultTimeout(60_000);
    await throttle(page);
    const log: string[] = [];
    page.on('console', (m) => log.push('console ' + m.text()));
    let t0 = 0;
    page.on('request', (r) => t0 && log.push(`${(performance.now() - t0).toFixed(0).padStart(5)} > ${r.method()} ${r.url().replace(director.url, '')}`));
    page.on('requestfinished', (r) => t0 && log.push(`${(performance.now() - t0).toFixed(0).padStart(5)} < ${r.url().replace(director.url, '')}`));
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    if (process.env.PROBE_WAIT) await page.waitForTimeout(Number(process.env.PROBE_WAIT));
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    t0 = performance.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await startPaneHeading(page).waitFor();
    await workbenchReady(page).waitFor();
    log.push(`${(performance.now() - t0).toFixed(0).padStart(5)} USABLE`);
    await page.waitForTimeout(3000);
    console.log(log.join('\n'));
    console.log('---');
    await context.close();
  }
} finally {
  await browser.close();
  await director.stop();
}
