import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, runCommand, tabs, waitForPath, lookAt } from './workbench';
import { readPdf } from './pdf-reader';
import type { Dashboard, DashboardsAnswer, UntestedAnswer } from '../src/api/contracts/reports';

/** Dashboards, the Panel Library, exports and the ATT&CK view on the shared director's demo data. */
const baseUrl = sharedDirectorUrl();
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const SHOTS = process.env.E2E_SHOTS_DIR;

async function get<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

async function demoDashboard(page: Page, name: string): Promise<Dashboard> {
  const { dashboards } = await get<DashboardsAnswer>(page, '/dashboards.json');
  const hit = dashboards.find((d) => d.name === name);
  if (!hit) throw new Error(`No demo dashboard ${name}`);
  return get<Dashboard>(page, `/dashboards/${hit.id}`);
}

/**
 * The calls an export could make, from now until stop(): any write, and any read of a dashboard or of
 * report figures. (The workbench's own background reads, the session check and the banner, may fall in
 * the same seconds and are not the export's.)
 */
function exportCalls(page: Page): { stop: () => string[] } {
  const calls: string[] = [];
  const onRequest = (r: { method(): string; url(): string }) => {
    const url = new URL(r.url());
    if (!url.protocol.startsWith('http') || url.pathname.startsWith('/assets/')) return;
    if (r.method() !== 'GET' || /^\/(reports|dashboards)\b/.test(url.pathname)) calls.push(`${r.method()} ${url.pathname}`);
  };
  page.on('request', onRequest);
  return {
    stop: () => {
      page.off('request', onRequest);
      return calls;
    },
  };
}

const bytesOf = async (d: Download) => new Uint8Array(fs.readFileSync((await d.path())!));
/** The eight bytes every PNG file starts with (its signature). */
const isPng = (bytes: Uint8Array) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b);
const shot = async (page: Page, name: string) => SHOTS && (await lookAt(page, { path: `${SHOTS}/${name}.png` }));

describe('reports', () => {
  const b = useBrowser(() => baseUrl);
  const asAdmin = (page: Page, at: string) => signIn(page, inject('adminEmail'), inject('adminPassword'), at);

  it('MON-023 MON-031 MON-052 MON-092 MON-094 opens a demo dashboard by keyboard, adds a panel from the Panel Library (the nine chart kinds then drawn) and moves it with Alt+Left', async () => {
    const { page } = b;
    await asAdmin(page, '/dashboards');
    const control = await demoDashboard(page, 'Control effectiveness');
    const list = page.getByRole('listbox', { name: 'Dashboards' });
    await list.waitFor();
    await list.focus();
    const names = await list.getByRole('option').allInnerTexts();
    const index = names.findIndex((n) => n.startsWith('Control effectiveness'));
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitForPath(page, `/dashboards/${control.id}`);
    const panels = page.getByRole('list', { name: 'Control effectiveness panels' }).getByRole('listitem');
    await eventually(() => panels.count(), control.panels.length, 'every panel is drawn');
    await page.getByRole('button', { name: /^Prevented: \d+/ }).first().waitFor();
    // The tab carries the dashboard's name, not its id.
    await eventually(() => tabs(page, 'Control effectiveness').count(), 1, 'the tab is named after the dashboard');
    await shot(page, 'dashboard');

    await panels.first().focus();
    await page.keyboard.press('a');
    const dialog = page.getByRole('dialog', { name: 'Panel Library' });
    for (const g of ['Summary', 'Breakdown', 'Over time', 'ATT&CK']) await dialog.getByRole('heading', { name: g }).waitFor();
    expect(await dialog.getByText('Some panels shown with a disabled button below are not available to add in this location.').count()).toBe(0);
    await shot(page, 'panel-library');
    await dialog.getByRole('button', { name: 'Add to Dashboard: Tactic Radar' }).focus();
    await page.keyboard.press('Enter');
    await eventually(() => panels.count(), control.panels.length + 1, 'the radar panel is added');
    const added = (await demoDashboard(page, 'Control effectiveness')).panels.at(-1)!;
    expect(added.kind).toBe('radar');
    // The nine chart kinds, each drawn: the SVG ones with their shapes, the uPlot ones on a canvas.
    for (const name of ['Bullet chart', 'Pass/fail force field', 'Gauge', 'Donut chart', 'Tactic radar', 'Tree map']) {
      await eventually(() => page.getByRole('figure', { name, exact: true }).locator('svg path, svg rect, svg circle').count().then((n) => n > 0), true, `${name} is drawn`);
    }
    for (const name of ['Line chart', 'Block rate chart', 'Bar chart']) {
      await eventually(() => page.getByRole('figure', { name, exact: true }).locator('canvas').first().evaluate((c: HTMLCanvasElement) => c.width > 0 && c.height > 0), true, `${name} is drawn`);
    }
    // Pass #00ffc0 and fail #d32223, as drawn.
    const field = page.getByRole('figure', { name: 'Pass/fail force field' });
    expect(await field.getByRole('button', { name: / failed$/ }).first().getAttribute('fill')).toBe('#d32223');
    expect(await field.getByRole('button', { name: / passed$/ }).first().getAttribute('fill')).toBe('#00ffc0');
    // Block rate: the range labelled with the threshold, each point pass- or fail-coloured by it (its table says which).
    const rate = control.panels.find((p) => p.kind === 'block_rate')!;
    const rateCard = page.locator(`[data-panel="${rate.uid}"]`);
    await eventually(() => rateCard.getByRole('figure', { name: 'Block rate chart' }).getByTestId('range-label').innerText(), `${rate.options.blockThreshold}%`, 'the range is labelled with the threshold');
    await rateCard.getByRole('button', { name: 'Show table' }).focus();
    await page.keyboard.press('Enter');
    // evaluateAll reads the rows there are now: wait for the table's first row to be drawn.
    const rateTableRows = rateCard.getByRole('table', { name: 'Block rate chart (table)' }).locator('tbody tr');
    await rateTableRows.first().waitFor();
    const rateRows = await rateTableRows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rateRows.length).toBeGreaterThan(0);
    for (const [, pct, colour] of rateRows) expect(colour, `${pct} against ${rate.options.blockThreshold}%`).toBe(Number.parseFloat(pct!) >= rate.options.blockThreshold ? 'pass' : 'fail');
    await page.keyboard.press('Enter');
    await rateCard.getByRole('figure', { name: 'Block rate chart' }).waitFor();
    await page.locator(`[data-panel="${added.uid}"]`).focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await eventually(async () => (await demoDashboard(page, 'Control effectiveness')).panels.at(-2)?.uid, added.uid, 'the panel moved one place earlier');
    await page.locator(`[data-panel="${added.uid}"]`).focus();
    await page.keyboard.press('Shift+Delete');
    await eventually(async () => (await demoDashboard(page, 'Control effectiveness')).panels.length, control.panels.length, 'the panel is removed');
  });

  it('MON-022 MON-180 MON-143 exports a dashboard as a Letter PDF with the footer on every page; the panels and the export cost one report call', async () => {
    const { page } = b;
    const d = await (async () => {
      await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
      return demoDashboard(page, 'ATT&CK coverage');
    })();
    const calls: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (new URL(r.url()).pathname.startsWith('/reports/')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    };
    page.on('request', onRequest);
    const startedMinute = Math.floor(Date.now() / 60_000);
    await asAdmin(page, `/dashboards/${d.id}`);
    await page.getByRole('list', { name: 'ATT&CK coverage panels' }).waitFor();
    await page.getByRole('button', { name: 'Show table' }).nth(d.panels.length - 1).waitFor();
    const download = page.waitForEvent('download', { timeout: 60_000 });
    const during = exportCalls(page);
    await page.getByRole('toolbar', { name: 'Dashboard actions' }).getByRole('button', { name: 'Export PDF' }).click();
    const file = await download;
    // The PDF is made in the browser: no call from the click to the file (the code of jsPDF aside).
    expect(during.stop()).toEqual([]);
    expect(file.suggestedFilename()).toBe('ATT_CK_coverage.pdf');
    const pdf = readPdf(await bytesOf(file));
    expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
    for (const p of pdf.pages) {
      expect([p.width, p.height]).toEqual([612, 792]);
      expect(p.texts.some((t) => /^Generated on \d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2}$/.test(t))).toBe(true);
    }
    expect(pdf.pages[0]!.texts).toContain('ATT&CK coverage');
    expect(pdf.pages.flatMap((p) => p.texts)).toContain('Execution');
    // Every panel's drawing is in the report: one image per panel, painted from the page.
    expect(pdf.pages.flatMap((p) => p.images)).toHaveLength(d.panels.length);
    page.off('request', onRequest);
    // Every panel's figures came in one POST /reports/panels.json, and the export read them from there.
    // Relative ranges resolve per minute (dashboard-pane.tsx): a minute that turned meanwhile asks once more.
    const minutesTurned = Math.floor(Date.now() / 60_000) - startedMinute;
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(1 + minutesTurned);
    expect(new Set(calls)).toEqual(new Set(['POST /reports/panels.json']));
  });

  it('MON-181 MON-143 MON-140 MON-032 MON-115 MON-144 MON-145 MON-146 MON-147 MON-148 exports the dashboard as PNG in the browser, and its data as CSV through the data export options', async () => {
    const { page } = b;
    await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
    const d = await demoDashboard(page, 'Actors and zones');
    await asAdmin(page, `/dashboards/${d.id}`);
    await page.getByRole('list', { name: 'Actors and zones panels' }).waitFor();
    const png = page.waitForEvent('download');
    const during = exportCalls(page);
    await page.getByRole('button', { name: 'Export Image' }).click();
    const image = await bytesOf(await png);
    expect(during.stop(), 'the image is made in the browser, with no call').toEqual([]);
    expect(isPng(image), 'the file is a PNG').toBe(true);
    // Drawn at twice the pixel ratio (1 here; the cap of 3 and the canvas height limit: tests/unit/report-exports.test.ts).
    const grid = await page.getByRole('list', { name: 'Actors and zones panels' }).evaluate((el) => ({ w: el.scrollWidth, h: el.scrollHeight, dpr: window.devicePixelRatio }));
    const view = new DataView(image.buffer, image.byteOffset);
    expect(grid.dpr).toBe(1);
    expect(Math.abs(view.getUint32(16) - grid.w * 2)).toBeLessThanOrEqual(2);
    expect(Math.abs(view.getUint32(20) - grid.h * 2)).toBeLessThanOrEqual(2);
    // The data export menu: its options, then the file from the director with them.
    await runCommand(page, 'Export Dashboard Data as CSV');
    // The palette asks which dashboard, the focused one chosen at first: Enter runs on it.
    const form = page.getByRole('form', { name: 'Arguments for Export Dashboard Data as CSV' });
    await form.getByText('Chosen: Actors and zones').waitFor();
    await page.keyboard.press('Enter');
    const options = page.getByRole('dialog', { name: 'Export to CSV' });
    for (const r of ['Comma', 'Semicolon', 'Space', 'Tab']) await options.getByRole('radio', { name: r }).waitFor();
    expect(await options.getByRole('radio', { name: 'Download' }).isChecked()).toBe(true);
    expect(await options.getByRole('radio', { name: 'Popup' }).isChecked()).toBe(false);
    expect(await options.getByRole('radio', { name: /^Visible/ }).isChecked()).toBe(true);
    await options.getByRole('radio', { name: /^All/ }).waitFor();
    await options.getByRole('radio', { name: 'Replace with single quotes' }).waitFor();
    await options.getByText('Saved as Actors_and_zones.csv').waitFor();
    await options.getByRole('textbox', { name: 'File name' }).fill('zones');
    await options.getByText('Saved as zones.csv').waitFor();
    await options.getByRole('radio', { name: 'Semicolon' }).check();
    await shot(page, 'csv-options');
    const csv = page.waitForEvent('download');
    await options.getByRole('button', { name: 'Export' }).click();
    const file = await csv;
    expect(file.suggestedFilename()).toBe('zones.csv');
    const text = new TextDecoder().decode(await bytesOf(file));
    expect(text).toContain('Pass/Fail by source zone\r\nGroup;Total;Prevented;Detected;Alerts;Missed;Prevented %');
  });

  it('MON-022 MON-181 MON-146 the exports by keyboard on a focused panel: Ctrl+Shift+P saves the PDF, Ctrl+Shift+I the PNG, e opens the CSV options and Enter on Export saves the file', async () => {
    const { page } = b;
    await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
    const d = await demoDashboard(page, 'Actors and zones');
    await asAdmin(page, `/dashboards/${d.id}`);
    const panels = page.getByRole('list', { name: 'Actors and zones panels' }).getByRole('listitem');
    await eventually(() => panels.count(), d.panels.length, 'every panel is drawn');
    await page.getByRole('button', { name: 'Show table' }).nth(d.panels.length - 1).waitFor();
    await panels.first().focus();
    const pdf = page.waitForEvent('download', { timeout: 60_000 });
    await page.keyboard.press('Control+Shift+P');
    const report = readPdf(await bytesOf(await pdf));
    expect(report.pages[0]!.texts).toContain('Actors and zones');
    await panels.first().focus();
    const png = page.waitForEvent('download', { timeout: 60_000 });
    await page.keyboard.press('Control+Shift+I');
    const image = await bytesOf(await png);
    expect(isPng(image), 'the file is a PNG').toBe(true);
    await panels.first().focus();
    await page.keyboard.press('e');
    const options = page.getByRole('dialog', { name: 'Export to CSV' });
    await options.getByText('Saved as Actors_and_zones.csv').waitFor();
    const csv = page.waitForEvent('download');
    await options.getByRole('button', { name: 'Export' }).focus();
    await page.keyboard.press('Enter');
    expect((await csv).suggestedFilename()).toBe('Actors_and_zones.csv');
  });

  it('MON-007 a spoke of the tactic radar opens the ATT&CK view at /analyze/mitre/ with active_tactics[], start and end; the view shows the active tactics and lists the Actions of a technique with their latest runs', async () => {
    const { page } = b;
    await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
    const d = await demoDashboard(page, 'ATT&CK coverage');
    await asAdmin(page, `/dashboards/${d.id}`);
    // The tactic with the most runs in the range: a mouse click on its point (the farthest out).
    const spokes = page.getByRole('figure', { name: 'Tactic radar' }).getByRole('button', { name: /: \d+ run$/ });
    await spokes.first().waitFor();
    const runs = (await spokes.evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label') ?? ''))).map((l) => ({ tactic: l.split(':')[0]!, runs: Number(/(\d+) run$/.exec(l)![1]) }));
    const most = runs.reduce((m, r) => (r.runs > m.runs ? r : m));
    expect(most.runs).toBeGreaterThan(0);
    const tactic = most.tactic;
    await page.getByRole('figure', { name: 'Tactic radar' }).getByRole('button', { name: `${tactic}: ${most.runs} run`, exact: true }).locator('circle').click();
    await eventually(() => new URL(page.url()).pathname.replace(/\/$/, ''), '/analyze/mitre', 'the ATT&CK view opens');
    // The address as the workbench writes a pane's (active_tactics[] read as active_tactics, the link's form).
    const link = new URL(page.url()).searchParams;
    const ids = [...link.getAll('active_tactics[]'), ...link.getAll('active_tactics')];
    expect(ids).toHaveLength(1);
    const [id] = ids;
    expect(id).toMatch(/^TA\d{4}$/);
    expect(Date.parse(link.get('start')!)).toBeLessThan(Date.parse(link.get('end')!));
    const matrix = page.getByRole('grid', { name: 'ATT&CK matrix' });
    await eventually(() => matrix.getByRole('columnheader').allInnerTexts(), [`${tactic} ${id}`], 'only the tactic of the spoke');

    await page.goto('/analyze/mitre/?active_tactics[]=TA0002');
    const grid = page.getByRole('grid', { name: 'ATT&CK matrix' });
    await grid.waitFor();
    expect(await grid.getByRole('columnheader').allInnerTexts()).toEqual(['Execution TA0002']);
    const cell = grid.getByRole('gridcell', { name: /^T1059 Command and Scripting Interpreter: [1-9]\d* Actions/ });
    await cell.click();
    const detail = page.getByRole('complementary', { name: 'Technique detail' });
    await detail.getByRole('heading', { name: 'T1059 Command and Scripting Interpreter' }).waitFor();
    expect(await detail.getByRole('listitem').count()).toBeGreaterThan(0);
    await shot(page, 'mitre');
  });

  it('drafts a simulation of the Actions of the untested ATT&CK techniques in one command', async () => {
    const { page } = b;
    await asAdmin(page, '/analyze/mitre');
    await page.getByRole('grid', { name: 'ATT&CK matrix' }).waitFor();
    const day = 86_400_000;
    const untested = await get<UntestedAnswer>(page, `/reports/mitre_untested.json?start=${new Date(Date.now() - 30 * day).toISOString()}&end=${new Date().toISOString()}`);
    expect(untested.actions.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Draft Untested' }).click();
    await waitForPath(page, '/manage_sims/actions/queue');
    const name = page.getByRole('textbox', { name: 'Name' });
    await eventually(() => name.inputValue(), `Untested ATT&CK techniques (${untested.techniques.length})`, 'the draft is named after the gaps');
    const steps = page.getByRole('list', { name: 'Steps' }).first().locator('[data-step]');
    const names = untested.actions.map((a, i) => `Step ${i + 1}: ${a.name}`);
    await eventually(() => steps.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), names, 'one step per Action of an untested technique');
    await shot(page, 'untested-draft');
    // The draft is the queue's: it is saved there as any other (not saved here, the shared director's simulations stay as seeded).
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
  });

  it('MON-095 MON-175 MON-052 the newcomer\'s walk by mouse and by keyboard: open a demo dashboard, add a panel, narrow the time range, open the jobs of a failing segment, open the ATT&CK view', async () => {
    const { page } = b;
    await asAdmin(page, '/dashboards');
    const d = await demoDashboard(page, 'Control effectiveness');
    const saved = async () => (await demoDashboard(page, 'Control effectiveness')).time_range.relBackCount;
    const panels = page.getByRole('list', { name: 'Control effectiveness panels' }).getByRole('listitem');
    // A failing segment: the missed job actions' arc of the donut.
    const failing = page.getByRole('button', { name: /^Missed: [1-9]\d* \(/ }).first();
    // A mouse click on the visible arc: the middle of the arc's centre line, in the page's pixels (the
    // centre of the arc's box may be in the donut's hole, where a click opens nothing).
    const clickArc = async () => {
      // The donut may be drawn again between finding the arc and measuring it (its panel's answer
      // arriving): a detached arc is looked up again.
      for (let attempt = 1; ; attempt++) {
        try {
          await failing.scrollIntoViewIfNeeded();
          const at = await failing.evaluate((el) => {
            const arc = el as SVGPathElement;
            const mid = arc.getPointAtLength(arc.getTotalLength() / 2);
            const p = new DOMPoint(mid.x, mid.y).matrixTransform(arc.getScreenCTM()!);
            return { x: p.x, y: p.y, onArc: arc.isPointInStroke(mid), hit: document.elementFromPoint(p.x, p.y) === arc };
          });
          expect(at, 'the point is on the arc and the arc is what is there').toMatchObject({ onArc: true, hit: true });
          await page.mouse.click(at.x, at.y);
          return;
        } catch (e) {
          if (attempt >= 3 || !/not attached|detached/i.test(String(e))) throw e;
        }
      }
    };
    const jobsOfSegment = async (activate: () => Promise<void>) => {
      const listCall = page.waitForRequest((r) => r.url().includes('/jobs/list_page_data.json') && r.url().includes('filterRange='));
      await activate();
      // The Jobs pane's address carries the rules of the segment.
      await eventually(() => new URL(page.url()).pathname, '/jobs', 'the Jobs pane opens');
      const url = new URL((await listCall).url());
      // The jobs whose job actions had no events, over the panel's range.
      expect(url.searchParams.get('structuredFilter')).toContain('"match_field":"events"');
      await page.getByRole('treegrid', { name: 'Jobs' }).waitFor();
    };

    // Mouse: the dashboard from the list, a panel from the Panel Library (and away again), the range's count, a failing segment.
    await page.getByRole('listbox', { name: 'Dashboards' }).getByRole('link', { name: 'Control effectiveness' }).click();
    await waitForPath(page, `/dashboards/${d.id}`);
    await eventually(() => panels.count(), d.panels.length, 'every panel is drawn');
    await page.getByRole('toolbar', { name: 'Dashboard actions' }).getByRole('button', { name: 'Add Panel' }).click();
    await page.getByRole('dialog', { name: 'Panel Library' }).getByRole('button', { name: 'Add to Dashboard: Prevention Gauge' }).click();
    await eventually(() => panels.count(), d.panels.length + 1, 'the gauge panel is added');
    const added = (await demoDashboard(page, 'Control effectiveness')).panels.at(-1)!;
    await page.locator(`[data-panel="${added.uid}"]`).getByRole('button', { name: `Remove ${added.title}` }).click();
    await eventually(() => panels.count(), d.panels.length, 'the gauge panel is removed');
    const range = page.getByRole('group', { name: 'Time range' });
    // The panels' call over the narrower range (14 days): its answer is what the segment is clicked in.
    const narrowed = page.waitForResponse((r) => {
      if (!r.url().includes('/reports/panels.json')) return false;
      const q = (r.request().postDataJSON() as { queries?: { query: { start?: string; end?: string } }[] } | null)?.queries?.[0]?.query;
      return !!q?.start && !!q.end && Math.round((Date.parse(q.end) - Date.parse(q.start)) / 86_400_000) === 14;
    });
    await range.getByRole('spinbutton', { name: 'Count' }).fill('14');
    // Saved once the picker's 2000 ms debounce has passed, and the panels follow.
    await eventually(saved, 14, 'the narrower range is saved');
    await narrowed;
    await failing.waitFor();
    await shot(page, 'donut-before-click');
    await jobsOfSegment(clickArc);

    // Keyboard: the range from the palette, a failing segment with Enter, the ATT&CK view from the palette.
    await page.goto(`/dashboards/${d.id}`);
    await eventually(() => panels.count(), d.panels.length, 'every panel is drawn');
    // A panel has the focus; `t` asks for the dashboard's range in the palette's form, this dashboard chosen.
    await panels.first().focus();
    await page.keyboard.press('t');
    const form = page.getByRole('form', { name: 'Arguments for Set Dashboard Time Range' });
    await form.getByText('Chosen: Control effectiveness').waitFor();
    await shot(page, 'time-range-hotkey');
    await form.getByLabel(/^Unit/).selectOption('day');
    await form.getByLabel(/^Last \(count\)/).fill('7');
    await page.keyboard.press('Enter');
    await eventually(saved, 7, 'the range set by keyboard is saved');
    await failing.waitFor();
    await failing.focus();
    await jobsOfSegment(() => page.keyboard.press('Enter'));
    await runCommand(page, 'Open ATT&CK View');
    await waitForPath(page, '/analyze/mitre');
    await page.getByRole('grid', { name: 'ATT&CK matrix' }).waitFor();
    // MON-051: a day of the week the view keeps, asked of the director with the browser's time zone and kept in the URL.
    const onSaturdays = page.waitForResponse((r) => r.url().includes('/reports/mitre_matrix.json') && new URL(r.url()).searchParams.get('week_days') === 'S' && !!new URL(r.url()).searchParams.get('tz'));
    await page.getByRole('button', { name: 'Days: Every day' }).click();
    await page.getByRole('group', { name: 'Days of the week' }).getByRole('button', { name: 'Saturday' }).click();
    await page.getByRole('button', { name: 'Days: S', exact: true }).waitFor();
    expect((await onSaturdays).status()).toBe(200);
    await page.getByText(/^Last 30 days on S ·/).waitFor();
    await eventually(() => new URL(page.url()).searchParams.get('wd'), 'S', 'the day is in the address');
    await shot(page, 'mitre-weekdays');

    // Mouse: the ATT&CK view from the Dashboards list's toolbar; the demo dashboard's range back as seeded.
    await page.goto('/dashboards');
    await page.getByRole('toolbar', { name: 'Dashboards actions' }).getByRole('button', { name: 'ATT&CK View' }).click();
    await waitForPath(page, '/analyze/mitre');
    await page.getByRole('grid', { name: 'ATT&CK matrix' }).waitFor();
    await page.goto(`/dashboards/${d.id}`);
    await page.getByRole('group', { name: 'Time range' }).getByRole('spinbutton', { name: 'Count' }).fill(String(d.time_range.relBackCount));
    await eventually(saved, d.time_range.relBackCount, 'the seeded range is back');
  });
});
