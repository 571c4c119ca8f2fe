/**
 * Banners (monitors-actors-reporting.md section 2 "Banners", MON-025, MON-026): an error banner
 * (closable) and an info banner (optional loader, optionally closable).
 */
import { useState, type ReactNode } from 'react';

const TONE = {
  error: 'border-red-500/60 bg-red-500/15 text-red-100',
  info: 'border-sky-500/60 bg-sky-500/15 text-sky-100',
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
