import { jsPDF } from 'jspdf';
import type { TableData } from './charts/chart-frame';

/**
 * The report PDF (monitors-actors-reporting.md section 2 "Report PDF page layout", section 9): Letter
 * portrait 612 x 792 pt; margins top 90, right 40, bottom 60, left 40; a header 130 pt high on the first
 * page and 70 pt on later pages; a 50 pt footer reading 'Generated on' and the date-time in the user's
 * offset; header, footer and background on every page. Charts go in as images (captured at up to 3x),
 * their figures as tables that split across pages with the header row repeated.
 */
export const REPORT_PAGE = { width: 612, height: 792, margin: { top: 90, right: 40, bottom: 60, left: 40 }, footer: 50, headerFirst: 130, header: 70 } as const;

export interface ReportSection {
  title: string;
  /** A drawing (a data URL or the file's bytes) and its size in CSS pixels: JPEG is embedded as it is (PNG would be decoded and deflated again by jsPDF, much slower). */
  image?: { data: string | Uint8Array; width: number; height: number; format?: 'PNG' | 'JPEG' } | null;
  table: TableData;
}

export interface ReportDoc {
  title: string;
  subtitle: string;
  sections: ReportSection[];
  generatedAt?: Date;
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/** 'Generated on 2026-11-25 14:02 +01:00' in the user's offset. */
export function generatedOn(at: Date): string {
  const off = -at.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  return `Generated on ${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())} ${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
}

const ROW_H = 14;
const COL_PAD = 4;
const TITLE_H = 20;

/** A drawing's size on paper: the content's width at most, shrunk (proportions kept) to `maxH` high at most. */
function fitImage(image: { width: number; height: number }, contentW: number, maxH: number): { w: number; h: number } {
  const w = Math.min(contentW, image.width);
  const h = (image.height / image.width) * w;
  const fitH = Math.min(h, maxH);
  return { w: (w * fitH) / h, h: fitH };
}

export function buildReportPdf(doc: ReportDoc): jsPDF {
  const P = REPORT_PAGE;
  const pdf = new jsPDF({ unit: 'pt', format: [P.width, P.height], orientation: 'portrait', compress: false });
  const footerText = generatedOn(doc.generatedAt ?? new Date());
  const contentW = P.width - P.margin.left - P.margin.right;
  const bottom = P.height - P.margin.bottom;
  let page = 1;
  let y = 0;

  const decorate = () => {
    // Background, header band and footer of the current page.
    pdf.setFillColor(250, 251, 252);
    pdf.rect(0, 0, P.width, P.height, 'F');
    const headerH = page === 1 ? P.headerFirst : P.header;
    pdf.setFillColor(15, 23, 42);
    pdf.rect(0, 0, P.width, headerH - 20, 'F');
    pdf.setTextColor(255, 255, 255);
    pdf.setFontSize(page === 1 ? 20 : 12);
    pdf.text(doc.title, P.margin.left, page === 1 ? 48 : 30);
    if (page === 1) {
      pdf.setFontSize(10);
      pdf.text(doc.subtitle, P.margin.left, 72);
    }
    pdf.setTextColor(71, 85, 105);
    pdf.setFontSize(8);
    const fy = P.height - P.footer / 2;
    pdf.setDrawColor(203, 213, 225);
    pdf.line(P.margin.left, P.height - P.footer, P.width - P.margin.right, P.height - P.footer);
    pdf.text(footerText, P.margin.left, fy);
    pdf.text(`Page ${page}`, P.width - P.margin.right, fy, { align: 'right' });
    pdf.setTextColor(15, 23, 42);
    y = Math.max(P.margin.top, page === 1 ? P.headerFirst : P.header);
  };
  const newPage = () => {
    pdf.addPage([P.width, P.height], 'portrait');
    page++;
    decorate();
  };
  const ensure = (h: number) => {
    if (y + h > bottom) newPage();
  };

  // A drawing at most as tall as a later page holds below its section's title.
  const maxImageH = bottom - Math.max(P.header, P.margin.top) - TITLE_H;
  decorate();
  for (const s of doc.sections) {
    const fit = s.image ? fitImage(s.image, contentW, maxImageH) : null;
    // The title stays on the page of its drawing (or of the table's first rows).
    ensure(TITLE_H + (fit ? fit.h : ROW_H * 2));
    pdf.setFontSize(12);
    pdf.text(s.title, P.margin.left, y + 12);
    y += TITLE_H;
    if (s.image && fit) {
      pdf.addImage(s.image.data, s.image.format ?? 'PNG', P.margin.left, y, fit.w, fit.h);
      y += fit.h + 8;
    }
    const cols = s.table.columns.length || 1;
    const colW = contentW / cols;
    const header = () => {
      pdf.setFontSize(8);
      pdf.setFillColor(226, 232, 240);
      pdf.rect(P.margin.left, y, contentW, ROW_H, 'F');
      s.table.columns.forEach((c, i) => pdf.text(String(c), P.margin.left + i * colW + COL_PAD, y + 10, { maxWidth: colW - COL_PAD * 2 }));
      y += ROW_H;
    };
    ensure(ROW_H * 2);
    header();
    for (const r of s.table.rows) {
      if (y + ROW_H > bottom) {
        newPage();
        header();
      }
      r.forEach((v, i) => pdf.text(String(v).slice(0, 60), P.margin.left + i * colW + COL_PAD, y + 10, { maxWidth: colW - COL_PAD * 2 }));
      y += ROW_H;
    }
    y += 12;
  }
  return pdf;
}
