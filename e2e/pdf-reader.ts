/**
 * A small reader of uncompressed PDF files (what jsPDF writes with compress: false): the objects, the
 * page tree's pages with their MediaBox, the text each page's content stream shows (Tj strings, with
 * where each starts), the rectangles it fills and the images it draws (Do, with the box each fills).
 * Enough for tests to check page size, page count, margins, header, footer and background of a real
 * exported file. Positions are PDF points from the page's bottom left corner, as the file states them.
 */
export interface PdfBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PdfPage {
  width: number;
  height: number;
  texts: string[];
  /** Each text with the point it starts at (its `x y Td`). */
  placed: { text: string; x: number; y: number }[];
  /** Filled rectangles (`x y w h re f`), h negative when drawn downwards as jsPDF does. */
  fills: PdfBox[];
  /** The images the page draws (their XObject names, e.g. 'I0', once per draw). */
  images: string[];
  /** Where each image is drawn (`w 0 0 h x y cm /I0 Do`). */
  imageBoxes: PdfBox[];
}

const NUM = String.raw`(-?[\d.]+)`;

function objects(src: string): Map<number, string> {
  const out = new Map<number, string>();
  const re = /(\d+) 0 obj([\s\S]*?)endobj/g;
  for (let m = re.exec(src); m; m = re.exec(src)) out.set(Number(m[1]), m[2]!);
  return out;
}

const unescape = (s: string) => s.replace(/\\([()\\])/g, '$1');

export function readPdf(bytes: Uint8Array): { pages: PdfPage[] } {
  const src = new TextDecoder('latin1').decode(bytes);
  if (!src.startsWith('%PDF-')) throw new Error('Not a PDF file');
  const objs = objects(src);
  const catalog = [...objs.values()].find((o) => /\/Type\s*\/Catalog/.test(o));
  const pagesRef = catalog?.match(/\/Pages\s+(\d+)\s+0\s+R/)?.[1];
  const root = pagesRef ? objs.get(Number(pagesRef)) : undefined;
  if (!root) throw new Error('No page tree');
  const kids = [...(root.match(/\/Kids\s*\[([^\]]*)\]/)?.[1] ?? '').matchAll(/(\d+)\s+0\s+R/g)].map((k) => Number(k[1]));
  const rootBox = root.match(/\/MediaBox\s*\[([^\]]*)\]/)?.[1];
  return {
    pages: kids.map((id) => {
      const page = objs.get(id) ?? '';
      const box = (page.match(/\/MediaBox\s*\[([^\]]*)\]/)?.[1] ?? rootBox ?? '').trim().split(/\s+/).map(Number);
      const contentRef = page.match(/\/Contents\s+(\d+)\s+0\s+R/)?.[1];
      const content = contentRef ? (objs.get(Number(contentRef)) ?? '') : '';
      const texts = [...content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)].map((m) => unescape(m[1]!));
      const placed = [...content.matchAll(new RegExp(String.raw`${NUM}\s+${NUM}\s+Td\s*\(((?:\\.|[^\\)])*)\)\s*Tj`, 'g'))].map((m) => ({ text: unescape(m[3]!), x: Number(m[1]), y: Number(m[2]) }));
      const fills = [...content.matchAll(new RegExp(String.raw`${NUM}\s+${NUM}\s+${NUM}\s+${NUM}\s+re\s+f\b`, 'g'))].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }));
      const images = [...content.matchAll(/\/([\w.-]+)\s+Do\b/g)].map((m) => m[1]!);
      const imageBoxes = [...content.matchAll(new RegExp(String.raw`${NUM}\s+0\s+0\s+${NUM}\s+${NUM}\s+${NUM}\s+cm\s*\/[\w.-]+\s+Do\b`, 'g'))].map((m) => ({ x: Number(m[3]), y: Number(m[4]), w: Number(m[1]), h: Number(m[2]) }));
      return { width: (box[2] ?? 0) - (box[0] ?? 0), height: (box[3] ?? 0) - (box[1] ?? 0), texts, placed, fills, images, imageBoxes };
    }),
  };
}
