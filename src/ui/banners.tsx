/**
 * Banners (monitors-actors-reporting.md section 2 "Banners", MON-025..028): an error banner
 * (closable), an info banner (optional loader, optionally closable), a warning banner (optionally
 * closable, optionally in a chosen colour) and the banner-text preview.
 */
import { useState, type ReactNode } from 'react';

const TONE = {
  error: 'border-red-500/60 bg-red-500/15 text-red-100',
  info: 'border-sky-500/60 bg-sky-500/15 text-sky-100',
  warning: 'border-amber-500/60 bg-amber-500/15 text-amber-50',
};

/** Black or white text, whichever reads better on a #RRGGBB background. */
export function textOn(color: string): string {
  const n = parseInt(color.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111111' : '#FFFFFF';
}

function Banner({ tone, children, closable, loader, label, color }: { tone: keyof typeof TONE; children: ReactNode; closable: boolean; loader?: boolean; label: string; color?: string | undefined }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const style = color ? { backgroundColor: color, borderColor: color, color: textOn(color) } : undefined;
  return (
    <div role={tone === 'info' ? 'status' : 'alert'} aria-label={label} style={style} className={`flex items-center gap-2 rounded border px-3 py-2 text-sm ${TONE[tone]}`}>
      {loader && <span aria-label="Loading" className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent" />}
      <span className="flex-1">{children}</span>
      {closable && (
        <button type="button" aria-label="Close banner" className="px-1 text-lg leading-none" onClick={() => setOpen(false)}>
          ×
        </button>
      )}
    </div>
  );
}

export const ErrorBanner = ({ children }: { children: ReactNode }) => (
  <Banner tone="error" closable label="Error">
    {children}
  </Banner>
);
export const InfoBanner = ({ children, loader = false, closable = false }: { children: ReactNode; loader?: boolean; closable?: boolean }) => (
  <Banner tone="info" closable={closable} loader={loader} label="Information">
    {children}
  </Banner>
);

/** MON-027: the warning banner; `color` (#RRGGBB) paints it, e.g. the site banner's chosen colour. */
export const WarningBanner = ({ children, closable = false, color }: { children: ReactNode; closable?: boolean; color?: string | undefined }) => (
  <Banner tone="warning" closable={closable} label="Warning" color={color}>
    {children}
  </Banner>
);

export const BANNER_PREVIEW_PLACEHOLDER = 'Add a banner text to preview here';

/** MON-028: the banner-text preview; the placeholder while the text is empty. */
export function BannerPreview({ text, color }: { text: string; color?: string | undefined }) {
  const empty = !text.trim();
  return (
    <figure aria-label="Banner preview" className="flex flex-col gap-1">
      <figcaption className="text-xs font-medium text-muted">Preview</figcaption>
      {empty ? (
        <p className="rounded border border-dashed border-line px-3 py-2 text-sm text-muted italic">{BANNER_PREVIEW_PLACEHOLDER}</p>
      ) : (
        <WarningBanner color={color}>{text}</WarningBanner>
      )}
    </figure>
  );
}
