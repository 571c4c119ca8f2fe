import { http } from '@/api/http';
import { csvFilename, type CsvSeparator } from '@/api/contracts/jobs';
import { MAX_REPORT_ROWS } from '@/api/contracts/reports';
import { deliverCsv } from '@/ui/csv-delivery';
import { describeTimeRange } from '@/api/contracts/time-range';
import type { Dashboard } from '@/api/contracts/reports';
import { downloadBytes } from '@/ui/download';
import { zipStore } from '@/ui/zip-store';
import type { QueryClient } from '@tanstack/react-query';
import { dashboardRequests, loadPanels, panelQuery, panelsQuery, shownClock, sourceOf, tableOf } from './panel-data';
import type { ReportSection } from './pdf-report';
import { reportsStore } from './store';

/**
 * Dashboard exports. PDF and images run in the browser with no call (MON-143): the figures come from the
 * result calls, the drawings from the panels on screen (when the dashboard is open). CSV asks the
 * director (POST /reports/{source}.csv with the export options, MON-140). Progress shows for exports
 * that take over a second.
 */

const slug = (s: string) => s.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'dashboard';
const withExt = (name: string | undefined, fallback: string, ext: string) => {
  const base = (name ?? '').trim() || fallback;
  return base.toLowerCase().endsWith(`.${ext}`) ? base : `${base}.${ext}`;
};

async function withProgress<T>(label: string, total: number, work: (step: () => void) => Promise<T>): Promise<T> {
  reportsStore.progress = { label, done: 0, total };
  try {
    return await work(() => {
      if (reportsStore.progress) reportsStore.progress.done++;
    });
  } finally {
    reportsStore.progress = null;
  }
}

const gridElement = (d: Dashboard): HTMLElement | null => (typeof document === 'undefined' ? null : document.querySelector<HTMLElement>(`[data-dashboard="${d.id}"] [data-grid]`));

const toBase64 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

/** PDF drawings: 2 canvas pixels per CSS pixel at most (as a panel of up to the page's width prints), and 3 per point on paper. */
const PDF_SCALE = 2;
const PX_PER_PT = 3;

/**
 * The drawings of the panels on screen, by uid: each panel's chart area painted once, at the scale its
 * place on paper needs (a wide panel is shrunk to the page's width: fewer pixels), as JPEG bytes. One
 * canvas at a time, encoded by the browser off the main thread.
 */
async function panelDrawings(d: Dashboard, contentPt: number, step: () => void): Promise<Map<string, NonNullable<ReportSection['image']>>> {
  const out = new Map<string, NonNullable<ReportSection['image']>>();
  const grid = gridElement(d);
  if (!grid) return out;
  const { paintElement, jpegBytes } = await import('./paint-panel');
  for (const p of d.panels) {
    const el = grid.querySelector<HTMLElement>(`[data-panel="${p.uid}"] [data-chart]`);
    if (!el || !el.clientWidth || !el.clientHeight) continue;
    const { width, height } = el.getBoundingClientRect();
    const scale = Math.min(PDF_SCALE, (PX_PER_PT * Math.min(contentPt, width)) / width);
    const canvas = await paintElement(el, scale);
    if (canvas) {
      out.set(p.uid, { data: await jpegBytes(canvas), width, height, format: 'JPEG' });
      // The canvas's pixels are freed at once (20 panels would hold tens of megabytes until collected).
      canvas.width = canvas.height = 0;
    }
    step();
  }
  return out;
}

/** The dashboard as a PDF report: a section per panel (drawing when on screen, figures as a table). */
export async function exportDashboardPdf(d: Dashboard, filename?: string, queryClient?: QueryClient | null): Promise<{ filename: string; pages: number; base64: string }> {
  const name = withExt(filename, slug(d.name), 'pdf');
  return withProgress(`Exporting ${name}`, d.panels.length + 1, async (step) => {
    const now = new Date();
    // The panels' figures all at once, in one call; the dashboard on screen already holds them (same query key).
    const { queries, keyOf } = dashboardRequests(d, shownClock(d.id, now));
    // jsPDF loads with the first PDF export, not with the workbench (beside the figures).
    const code = import('./pdf-report');
    const answers = queryClient ? await queryClient.fetchQuery({ ...panelsQuery(queries, queryClient), staleTime: 60_000 }) : await loadPanels(queries);
    const data = d.panels.map((p) => {
      const a = answers[keyOf[p.uid]!];
      if (!a) throw new Error(`No figures for the panel "${p.title}"`);
      if ('error' in a) throw new Error(`${p.title}: ${a.error.message}`);
      return a;
    });
    const { buildReportPdf, REPORT_PAGE } = await code;
    const drawings = await panelDrawings(d, REPORT_PAGE.width - REPORT_PAGE.margin.left - REPORT_PAGE.margin.right, step);
    const sections: ReportSection[] = d.panels.map((p, i) => ({ title: p.title, image: drawings.get(p.uid) ?? null, table: tableOf(data[i]!) }));
    const pdf = buildReportPdf({ title: d.name, subtitle: `${describeTimeRange(d.time_range)} · ${d.panels.length} panels · owner ${d.owner.name}`, sections, generatedAt: now });
    step();
    const bytes = new Uint8Array(pdf.output('arraybuffer'));
    downloadBytes(name, bytes, 'application/pdf');
    return { filename: name, pages: pdf.getNumberOfPages(), base64: toBase64(bytes) };
  });
}

/** The dashboard grid as PNG (one image), or a zip of slices when it is taller than a canvas may be. */
export async function exportDashboardPng(d: Dashboard, filename?: string): Promise<{ filename: string; images: number }> {
  const el = gridElement(d);
  if (!el) throw new Error(`Open the dashboard "${d.name}" to export it as an image.`);
  const { captureElement, canvasBytes } = await import('./image-export');
  return withProgress('Exporting image', 1, async (step) => {
    const canvases = await captureElement(el);
    step();
    const base = slug(d.name);
    if (canvases.length === 1) {
      const name = withExt(filename, base, 'png');
      downloadBytes(name, await canvasBytes(canvases[0]!), 'image/png');
      return { filename: name, images: 1 };
    }
    const files = await Promise.all(canvases.map(async (c, i) => ({ name: `${base}-${i + 1}.png`, data: await canvasBytes(c) })));
    const name = withExt(filename, base, 'zip');
    downloadBytes(name, zipStore(files), 'application/zip');
    return { filename: name, images: files.length };
  });
}

/** The data export options (section 7): separator, delivery, rows (visible or all), quote replacement, file name. */
export interface CsvOptions {
  separator: CsvSeparator;
  delivery: 'download' | 'popup';
  /** 'visible': the rows each panel shows (its row limit); 'all': every row (up to the call's maximum). */
  all_events: 'visible' | 'all';
  regex: 'double' | 'single';
  filename?: string | undefined;
}

export const DEFAULT_CSV_OPTIONS: CsvOptions = { separator: 'comma', delivery: 'download', all_events: 'visible', regex: 'double' };

/** The export's default name, {export}.csv (MON-148): the dashboard's name. */
export const csvExportName = (d: Pick<Dashboard, 'name'>) => slug(d.name);

/** Every panel's figures as one CSV from the director (POST /reports/{source}.csv per panel, joined with a blank line). */
export async function exportDashboardCsv(d: Dashboard, o: CsvOptions): Promise<{ filename: string; csv: string }> {
  const name = csvFilename(o.filename, csvExportName(d));
  return withProgress(`Exporting ${name}`, d.panels.length, async (step) => {
    const now = new Date();
    const parts: string[] = [];
    for (const p of d.panels) {
      const query = panelQuery(p, d.time_range, now);
      const props = o.all_events === 'all' ? { ...query, limit: MAX_REPORT_ROWS } : query;
      const body = { separator: o.separator, delivery: o.delivery, all_events: o.all_events, regex: o.regex, filename: name, props };
      const text = await http.post<string>(`/reports/${CSV_SOURCE[sourceOf(p.kind)]}.csv`, body, { parse: 'text' });
      parts.push(`${p.title}\r\n${text.replace(/^\uFEFF/, '')}`);
      step();
    }
    const csv = `\uFEFF${parts.join('\r\n')}`;
    deliverCsv(csv, name, o.delivery);
    return { filename: name, csv };
  });
}

export const CSV_SOURCE = { results: 'results', series: 'time_series', taam: 'mitre_taam_data', tree: 'tree_map' } as const;
