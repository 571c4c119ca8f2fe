/**
 * Paints a panel's drawing onto a canvas for the PDF, without html2canvas. html2canvas clones the whole
 * document into a frame and copies every element's computed style on each call (4 to 8 s for a 20-panel
 * dashboard under load, almost all of it in that copy). A panel holds little: its chart's SVG, uPlot's
 * canvas, and a few HTML boxes and texts around them (uPlot's legend, the block rate's range label, the
 * table toggle, a table or a message). So each is drawn here from the page as it is:
 *  - an SVG as an image of itself (its computed paint inlined), rasterised at the target scale (sharp);
 *  - a canvas (uPlot) as its bitmap;
 *  - an HTML element's background and borders, and its texts in their computed font and colour.
 * Reads only (rectangles and computed styles): the page is laid out once, not once per panel.
 */

/** The SVG paint properties a chart's shapes and texts take from CSS and attributes (currentColor, var(--x) resolved). */
const SVG_PAINT = ['fill', 'fill-opacity', 'stroke', 'stroke-opacity', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'visibility', 'display'] as const;

type Draw = (ctx: CanvasRenderingContext2D) => void;

const transparent = (color: string) => !color || color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);

/** The colour behind `el`: its own background or the nearest ancestor's (the panel's card), else the page's. */
export function backgroundOf(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (!transparent(bg)) return bg;
  }
  return '#ffffff';
}

/** An SVG element as a standalone SVG document, with its computed paint written on each element. */
function standaloneSvg(svg: SVGSVGElement, width: number, height: number): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [clone, ...clone.querySelectorAll('*')];
  from.forEach((el, i) => {
    const target = to[i] as SVGElement | undefined;
    if (!target) return;
    const cs = getComputedStyle(el);
    for (const p of SVG_PAINT) target.style.setProperty(p, cs.getPropertyValue(p));
  });
  clone.querySelectorAll('title').forEach((t) => t.remove());
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  return new XMLSerializer().serializeToString(clone);
}

async function svgImage(svg: SVGSVGElement, width: number, height: number): Promise<HTMLImageElement | null> {
  const url = URL.createObjectURL(new Blob([standaloneSvg(svg, width, height)], { type: 'image/svg+xml' }));
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
    return img;
  } catch {
    return null;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Where the last text painted ends: an element's ::after text (uPlot's legend colons) follows it. */
let lastText: DOMRect | null = null;

/** A text node's words where the page shows them (one line: the charts' labels, legends, cells and buttons). */
function textDraw(node: Text, origin: DOMRect, cs: CSSStyleDeclaration, alpha: number): Draw | null {
  const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const range = document.createRange();
  range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  lastText = r;
  return textAt(text, r, origin, cs, alpha);
}

function textAt(text: string, r: DOMRect, origin: DOMRect, cs: CSSStyleDeclaration, alpha: number): Draw {
  const font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const color = cs.color;
  return (ctx) => {
    ctx.globalAlpha = alpha;
    ctx.font = font;
    ctx.fillStyle = color;
    const m = ctx.measureText(text);
    // The text's box is centred on its line box, as the browser places it.
    const y = r.top - origin.top + (r.height + m.fontBoundingBoxAscent - m.fontBoundingBoxDescent) / 2;
    ctx.fillText(text, r.left - origin.left, y, r.width ? r.width + 1 : undefined);
  };
}

/** An element's ::after text (e.g. ':'), right after the last text painted inside it. */
function afterDraw(el: Element, origin: DOMRect, alpha: number): Draw | null {
  const after = getComputedStyle(el, '::after');
  const text = /^"(.+)"$/.exec(after.content)?.[1];
  if (!text || !lastText) return null;
  const r = new DOMRect(lastText.right, lastText.top, 0, lastText.height);
  return textAt(text, r, origin, after, alpha);
}

/** An HTML element's background and its borders (legend markers, table rules, the toggle button). */
function boxDraw(el: Element, origin: DOMRect, cs: CSSStyleDeclaration, alpha: number): Draw | null {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const bg = cs.backgroundColor;
  const sides = (['top', 'right', 'bottom', 'left'] as const)
    .map((side) => ({ side, width: parseFloat(cs.getPropertyValue(`border-${side}-width`)) || 0, color: cs.getPropertyValue(`border-${side}-color`), style: cs.getPropertyValue(`border-${side}-style`) }))
    .filter((b) => b.width > 0 && b.style !== 'none' && b.style !== 'hidden' && !transparent(b.color));
  if (transparent(bg) && !sides.length) return null;
  const x = r.left - origin.left;
  const y = r.top - origin.top;
  return (ctx) => {
    ctx.globalAlpha = alpha;
    if (!transparent(bg)) {
      ctx.fillStyle = bg;
      ctx.fillRect(x, y, r.width, r.height);
    }
    for (const b of sides) {
      ctx.fillStyle = b.color;
      if (b.side === 'top') ctx.fillRect(x, y, r.width, b.width);
      else if (b.side === 'bottom') ctx.fillRect(x, y + r.height - b.width, r.width, b.width);
      else if (b.side === 'left') ctx.fillRect(x, y, b.width, r.height);
      else ctx.fillRect(x + r.width - b.width, y, b.width, r.height);
    }
  };
}

/**
 * `root` (a panel's chart area) painted at `scale` canvas pixels per CSS pixel on its background, clipped
 * to its box as the page shows it; null when it has no size.
 */
export async function paintElement(root: HTMLElement, scale: number): Promise<HTMLCanvasElement | null> {
  const origin = root.getBoundingClientRect();
  if (!origin.width || !origin.height) return null;
  const pending: Promise<unknown>[] = [];
  const draws: (Draw | null)[] = [];
  const walk = (el: Element, parentAlpha: number) => {
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return;
    const own = Number(cs.opacity);
    const alpha = parentAlpha * (Number.isFinite(own) ? own : 1);
    const visible = cs.visibility !== 'hidden' && alpha > 0;
    if (el instanceof SVGSVGElement) {
      const r = el.getBoundingClientRect();
      if (!visible || !r.width || !r.height) return;
      const at = draws.push(null) - 1;
      pending.push(
        svgImage(el, r.width, r.height).then((img) => {
          if (img)
            draws[at] = (ctx) => {
              // Its own opacity is in the image (inlined with its paint).
              ctx.globalAlpha = parentAlpha;
              ctx.drawImage(img, r.left - origin.left, r.top - origin.top, r.width, r.height);
            };
        }),
      );
      return;
    }
    if (el instanceof HTMLCanvasElement) {
      const r = el.getBoundingClientRect();
      if (visible && r.width && r.height && el.width && el.height)
        draws.push((ctx) => {
          ctx.globalAlpha = alpha;
          ctx.drawImage(el, r.left - origin.left, r.top - origin.top, r.width, r.height);
        });
      return;
    }
    if (visible && el !== root) draws.push(boxDraw(el, origin, cs, alpha));
    lastText = null;
    for (const child of el.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (visible) draws.push(textDraw(child as Text, origin, cs, alpha));
      } else if (child instanceof Element) walk(child, alpha);
    }
    if (visible && el instanceof HTMLElement) draws.push(afterDraw(el, origin, alpha));
  };
  walk(root, 1);
  await Promise.all(pending);

  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(origin.width * scale));
  canvas.height = Math.max(1, Math.round(origin.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.scale(scale, scale);
  ctx.fillStyle = backgroundOf(root);
  ctx.fillRect(0, 0, origin.width, origin.height);
  ctx.beginPath();
  ctx.rect(0, 0, origin.width, origin.height);
  ctx.clip();
  ctx.textBaseline = 'alphabetic';
  for (const d of draws) d?.(ctx);
  return canvas;
}

/** A canvas as JPEG bytes (encoded off the main thread by the browser; JPEG goes into the PDF as it is). */
export const jpegBytes = (c: HTMLCanvasElement, quality = 0.92): Promise<Uint8Array> =>
  new Promise((resolve, reject) => c.toBlob((b) => (b ? b.arrayBuffer().then((a) => resolve(new Uint8Array(a)), reject) : reject(new Error('The drawing could not be encoded.'))), 'image/jpeg', quality));
