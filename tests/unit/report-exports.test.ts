import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readPdf, type PdfBox, type PdfPage } from '../../e2e/pdf-reader';
import { buildReportPdf, generatedOn, REPORT_PAGE } from '@/features/reports/pdf-report';
import { imageScale, maxCanvasHeight, slices } from '@/features/reports/image-export';
import { zipStore } from '@/ui/zip-store';

/**
 * The report PDF's page layout and the image export's limits, read back from the bytes they make: the
 * PDF with the tests' PDF reader (positions in points from the page's bottom left), the zip by its
 * headers and central directory.
 */

/** A 1x1 PNG. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
const P = REPORT_PAGE;
const AT = new Date('2026-03-04T05:06:00Z');
const ROWS = Array.from({ length: 90 }, (_, i) => [`Group ${i}`, i * 3, `${i % 100}%`]);

function report(): PdfPage[] {
  const pdf = buildReportPdf({
    title: 'Control effectiveness',
    subtitle: 'Last 30 days, 2 panels',
    generatedAt: AT,
    sections: [
      { title: 'Results by Action type', image: { data: PNG, width: 900, height: 300, format: 'PNG' }, table: { columns: ['Group', 'Total', 'Prevented %'], rows: ROWS } },
      { title: 'Block Rate', image: { data: PNG, width: 400, height: 2400, format: 'PNG' }, table: { columns: ['Start', 'Blocked %'], rows: [['2026-03-01', '80%']] } },
    ],
  });
  return readPdf(new Uint8Array(pdf.output('arraybuffer'))).pages;
}

const isPage = (f: PdfBox) => f.x === 0 && f.y === P.height && f.w === P.width && f.h === -P.height;
const isHeaderBand = (f: PdfBox) => f.x === 0 && f.y === P.height && f.w === P.width && f.h !== -P.height;

describe('report PDF layout', () => {
  const pages = report();
  const headerOf = (i: number) => (i === 0 ? P.headerFirst : P.header);
  /** The highest point content may reach on a page: below the header and the top margin. */
  const contentTop = (i: number) => P.height - Math.max(P.margin.top, headerOf(i));
  const footerTop = P.footer;
  const left = P.margin.left;
  const right = P.width - P.margin.right;
  const bottom = P.margin.bottom;

  it('MON-180 Letter portrait 612 x 792 pt; a long table goes on over several pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const p of pages) expect([p.width, p.height]).toEqual([612, 792]);
    expect([P.margin.top, P.margin.right, P.margin.bottom, P.margin.left, P.footer, P.headerFirst, P.header]).toEqual([90, 40, 60, 40, 50, 130, 70]);
  });

  it('MON-022 MON-180 header, footer and background on each page: the header 130 pt on the first page and 70 after, the footer 50 pt reading Generated on and the date-time in the user\'s offset', () => {
    const footer = generatedOn(AT);
    const off = -AT.getTimezoneOffset();
    expect(footer).toMatch(/^Generated on \d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2}$/);
    expect(footer.endsWith(`${off < 0 ? '-' : '+'}${String(Math.trunc(Math.abs(off) / 60)).padStart(2, '0')}:${String(Math.abs(off) % 60).padStart(2, '0')}`)).toBe(true);
    pages.forEach((p, i) => {
      // The background first, under everything else.
      expect(isPage(p.fills[0]!), `page ${i + 1} background`).toBe(true);
      // The header band inside the header's height, the title in it.
      const band = p.fills.find(isHeaderBand);
      expect(band, `page ${i + 1} header`).toBeDefined();
      expect(-band!.h).toBeGreaterThan(0);
      expect(-band!.h).toBeLessThanOrEqual(headerOf(i));
      const title = p.placed.find((t) => t.text === 'Control effectiveness');
      expect(title!.y, `page ${i + 1} title in the header`).toBeGreaterThan(P.height + band!.h);
      // The footer: in the 50 pt at the bottom, at the left margin, with the page number.
      const generated = p.placed.filter((t) => t.text === footer);
      expect(generated, `page ${i + 1} footer`).toHaveLength(1);
      expect(generated[0]!.x).toBe(left);
      expect(generated[0]!.y).toBeGreaterThan(0);
      expect(generated[0]!.y).toBeLessThan(footerTop);
      expect(p.placed.find((t) => t.text === `Page ${i + 1}`)!.y).toBeLessThan(footerTop);
    });
    // The first page's taller header also holds the subtitle.
    expect(pages.map((p) => p.placed.filter((t) => t.text === 'Last 30 days, 2 panels' && t.y > P.height - P.headerFirst).length)).toEqual(pages.map((_, i) => (i === 0 ? 1 : 0)));
  });

  it('MON-180 the content keeps the margins (left and right 40, bottom 60) and starts below the header (130 pt on the first page, the 90 pt top margin after)', () => {
    pages.forEach((p, i) => {
      const inHeaderOrFooter = (y: number) => y > contentTop(i) || y < footerTop;
      const content = p.placed.filter((t) => !inHeaderOrFooter(t.y));
      expect(content.length, `page ${i + 1} has content`).toBeGreaterThan(0);
      // No text between the footer and the bottom margin, nor between the header and the content's top.
      expect(p.placed.filter((t) => t.y >= footerTop && t.y < bottom)).toEqual([]);
      for (const t of content) {
        expect(t.x, t.text).toBeGreaterThanOrEqual(left);
        expect(t.x, t.text).toBeLessThan(right);
        expect(t.y, t.text).toBeGreaterThanOrEqual(bottom);
        expect(t.y, t.text).toBeLessThanOrEqual(contentTop(i));
      }
      for (const f of [...p.fills.filter((f) => !isPage(f) && !isHeaderBand(f)), ...p.imageBoxes]) {
        expect(f.x).toBeGreaterThanOrEqual(left);
        expect(f.x + f.w).toBeLessThanOrEqual(right + 0.01);
        expect(Math.max(f.y, f.y + f.h)).toBeLessThanOrEqual(contentTop(i));
        expect(Math.min(f.y, f.y + f.h)).toBeGreaterThanOrEqual(bottom);
      }
    });
    // Both drawings are in, the tall one shrunk to fit a page, each on the page of its section's title.
    expect(pages.flatMap((p) => p.imageBoxes)).toHaveLength(2);
    for (const title of ['Results by Action type', 'Block Rate']) {
      const page = pages.find((p) => p.placed.some((t) => t.text === title))!;
      const at = page.placed.find((t) => t.text === title)!;
      expect(page.imageBoxes.some((b) => b.y + b.h < at.y), `${title}: its drawing below it on its page`).toBe(true);
    }
  });

  it('MON-180 a table split across pages repeats its header row, and every row is printed once', () => {
    const rowsOn = (p: PdfPage) => p.placed.filter((t) => /^Group \d+$/.test(t.text)).map((t) => t.text);
    expect(pages.flatMap(rowsOn)).toEqual(ROWS.map((r) => r[0]));
    const withRows = pages.filter((p) => rowsOn(p).length > 0);
    expect(withRows.length).toBeGreaterThan(1);
    for (const p of withRows) {
      const head = p.placed.find((t) => t.text === 'Prevented %')!;
      // The header row comes above the page's first row.
      expect(head.y).toBeGreaterThan(p.placed.find((t) => t.text === rowsOn(p)[0])!.y);
    }
  });
});

/** The entries of a stored (uncompressed) zip, read from its central directory. */
function readZip(zip: Uint8Array): { name: string; data: Uint8Array; crc: number }[] {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  expect(v.getUint32(end, true)).toBe(0x06054b50);
  const count = v.getUint16(end + 10, true);
  let at = v.getUint32(end + 16, true);
  const out: { name: string; data: Uint8Array; crc: number }[] = [];
  for (let i = 0; i < count; i++) {
    expect(v.getUint32(at, true)).toBe(0x02014b50);
    const crc = v.getUint32(at + 16, true);
    const size = v.getUint32(at + 20, true);
    const nameLen = v.getUint16(at + 28, true);
    const local = v.getUint32(at + 42, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLen));
    expect(v.getUint32(local, true)).toBe(0x04034b50);
    expect(v.getUint16(local + 8, true), 'stored').toBe(0);
    const start = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    out.push({ name, data: zip.subarray(start, start + size), crc });
    at += 46 + nameLen;
  }
  return out;
}

describe('image export limits', () => {
  it('MON-181 scale: twice the pixel ratio, capped at 3 (1.5 on Edge), never below 1', () => {
    expect(imageScale(1, false)).toBe(2);
    expect(imageScale(1.25, false)).toBe(2.5);
    expect(imageScale(2, false)).toBe(3);
    expect(imageScale(3, false)).toBe(3);
    expect(imageScale(2, true)).toBe(1.5);
    expect(imageScale(0.25, false)).toBe(1);
  });

  it('MON-181 a canvas is at most 32767 px high (16384 on Edge): a taller dashboard is captured in slices that each fit', () => {
    expect(maxCanvasHeight(false)).toBe(32767);
    expect(maxCanvasHeight(true)).toBe(16384);
    for (const [height, scale, cap] of [
      [40_000, 2, 32767],
      [40_000, 3, 32767],
      [20_000, 1.5, 16384],
    ] as const) {
      const parts = slices(height, scale, cap);
      expect(parts.length).toBe(Math.ceil((height * scale) / cap));
      let top = 0;
      for (const [t, h] of parts) {
        expect(t).toBe(top);
        expect(h * scale).toBeLessThanOrEqual(cap);
        top += h;
      }
      expect(top).toBe(height);
    }
    expect(slices(900, 3, 32767)).toEqual([[0, 900]]);
  });

  it('MON-181 the archive of several images is a zip of the assets, each stored whole with its CRC', () => {
    const files = [
      { name: 'Control_effectiveness-1.png', data: PNG },
      { name: 'Control_effectiveness-2.png', data: Uint8Array.from([1, 2, 3, 4, 5]) },
    ];
    const entries = readZip(zipStore(files));
    expect(entries.map((e) => e.name)).toEqual(files.map((f) => f.name));
    entries.forEach((e, i) => {
      expect([...e.data]).toEqual([...files[i]!.data]);
      expect(e.crc).toBe(zlib.crc32(files[i]!.data));
    });
  });
});
