/**
 * Banners (monitors-actors-reporting.md section 2 "Banners", MON-025..029, MON-114): an error banner
 * (closable), an info banner (optional loader, optionally closable), a warning banner, the banner-text
 * preview ('Add a banner text to preview here' when empty), and the colour picker (a text field and a
 * swatch; 'Invalid format. Use example: #FFFFFF', 'Please select a color' when empty).
 */
import { useState, type ReactNode } from 'react';

export const BANNER_PREVIEW_PLACEHOLDER = 'Add a banner text to preview here';
export const COLOUR_FORMAT_MESSAGE = 'Invalid format. Use example: #FFFFFF';
export const COLOUR_EMPTY_MESSAGE = 'Please select a color';
const HEX_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** MON-114: null when valid. */
export function colourError(value: string): string | null {
  if (!value.trim()) return COLOUR_EMPTY_MESSAGE;
  return HEX_COLOUR.test(value.trim()) ? null : COLOUR_FORMAT_MESSAGE;
}

const TONE = {
  error: 'border-red-500/60 bg-red-500/15 text-red-100',
  info: 'border-sky-500/60 bg-sky-500/15 text-sky-100',
  warning: 'border-amber-500/60 bg-amber-500/15 text-amber-100',
};

function Banner({ tone, children, closable, loader, label }: { tone: keyof typeof TONE; children: ReactNode; closable: boolean; loader?: boolean; label: string }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div role={tone === 'info' ? 'status' : 'alert'} aria-label={label} className={`flex items-center gap-2 rounded border px-3 py-2 text-sm ${TONE[tone]}`}>
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
export const WarningBanner = ({ children }: { children: ReactNode }) => (
  <Banner tone="warning" closable={false} label="Warning">
    {children}
  </Banner>
);

/** MON-028: the banner text as it will show, or the placeholder. */
export function BannerPreview({ text, colour }: { text: string; colour: string }) {
  const empty = !text.trim();
  return (
    <div aria-label="Banner preview" className={`rounded border border-line px-3 py-2 text-sm ${empty ? 'text-muted' : ''}`} style={empty || colourError(colour) ? undefined : { backgroundColor: colour }}>
      {empty ? BANNER_PREVIEW_PLACEHOLDER : text}
    </div>
  );
}

/** MON-029, MON-114: a text field and a swatch (a native colour input). */
export function ColourPicker({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  const error = colourError(value);
  return (
    <div className="flex flex-col gap-1 text-xs">
      <div className="flex items-center gap-2">
        <label className="flex items-center gap-1">
          <span className="text-muted">{label}</span>
          <input className="w-24 rounded border border-line bg-surface px-2 py-1 font-mono text-sm" value={value} aria-invalid={!!error} onChange={(e) => onChange(e.target.value)} />
        </label>
        <input type="color" aria-label={`${label} swatch`} className="h-7 w-9 rounded border border-line" value={error ? '#000000' : value.trim().toLowerCase()} onChange={(e) => onChange(e.target.value.toUpperCase())} />
      </div>
      {error && <span className="text-red-400">{error}</span>}
    </div>
  );
}
