import html2canvas from 'html2canvas';

/**
 * Image export (section 9): html2canvas at the device pixel ratio times two, capped at 3 (1.5 on Edge);
 * a canvas is at most 32767 px high (16384 on Edge), so a tall dashboard is captured as several slices.
 */
const isEdge = () => typeof navigator !== 'undefined' && /Edg\//.test(navigator.userAgent);
export const imageScale = (dpr: number, edge = isEdge()) => Math.min(edge ? 1.5 : 3, Math.max(1, dpr * 2));
export const maxCanvasHeight = (edge = isEdge()) => (edge ? 16384 : 32767);

/** CSS-pixel slices [top, height) of an element of `height` px at `scale`, each within the canvas cap. */
export function slices(height: number, scale: number, cap = maxCanvasHeight()): [number, number][] {
  const per = Math.floor(cap / scale);
  const out: [number, number][] = [];
  for (let top = 0; top < height; top += per) out.push([top, Math.min(per, height - top)]);
  return out.length ? out : [[0, 0]];
}

export async function captureElement(el: HTMLElement, scale = imageScale(window.devicePixelRatio || 1)): Promise<HTMLCanvasElement[]> {
  const height = el.scrollHeight;
  const canvases: HTMLCanvasElement[] = [];
  for (const [top, h] of slices(height, scale)) {
    canvases.push(await html2canvas(el, { scale, y: top, height: h, windowHeight: Math.max(height, window.innerHeight), backgroundColor: getComputedStyle(document.body).backgroundColor || '#0b0f17', logging: false }));
  }
  return canvases;
}

export const canvasBytes = (c: HTMLCanvasElement): Promise<Uint8Array> =>
  new Promise((resolve, reject) => c.toBlob((b) => (b ? b.arrayBuffer().then((a) => resolve(new Uint8Array(a)), reject) : reject(new Error('The image could not be encoded.'))), 'image/png'));
