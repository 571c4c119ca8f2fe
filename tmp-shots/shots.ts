import { launchBrowser, openPage, signInThroughForm } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector } from '../e2e/director';

const director = await startDirector({});
const browser = await launchBrowser();
try {
  const { page, context } = await openPage(browser, director.url);
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
  await signInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/simulations?sim_type=sequence');
  const res = await page.request.get('/library/simulations.json?id=7', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  const vid = ((await res.json()) as { data: { preview_props: { vid: string } } }).data.preview_props.vid;
  await page.goto(`/simulation/${vid}/edit`);
  await page.getByRole('button', { name: 'Edit tags' }).click();
  await page.getByRole('textbox', { name: 'New tag' }).fill('Quarterly review');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/sim3-editor-tags.png' });
  await page.keyboard.press('Escape');
  await page.goto('/monitor?refresh=10');
  await page.getByText('Unique Checks').waitFor();
  await page.screenshot({ path: '/tmp/sim3-monitor-stats.png' });
  await page.goto('/simulations/select_nodes?sim_id=7');
  await page.getByTestId('network-map-canvas').locator('[data-cell-id^="node_"]').first().waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/sim3-select-nodes.png' });
} finally {
  await browser.close();
  await director.stop();
}
