import { flash } from '@/ui/toasts';

const FLAGGED = /expired|errored|offline/i;

/** Section 8: a row with status_details shows an info icon; a click shows the details (a heading inside becomes the title). */
export function DetailsButton({ details }: { details: string }) {
  return (
    <button
      type="button"
      title="Error connecting, click for details"
      aria-label="Error connecting, click for details"
      className="ml-1 inline-flex h-4 w-4 items-center justify-center rounded-full border border-red-400 text-[10px] leading-none text-red-300 hover:bg-red-500/20"
      onClick={() => {
        const m = /^#+\s*(.+)\n([\s\S]*)$/.exec(details);
        if (m?.[1] && m[2]) flash('alert', m[2].trim(), { title: m[1].trim() });
        else flash('alert', details);
      }}
    >
      i
    </button>
  );
}

/** A status word; Expired, Errored and offline are flagged (MON-153). */
export function StatusCell({ status, details }: { status: string; details: string | null }) {
  const flagged = FLAGGED.test(status);
  return (
    <span className="inline-flex items-center whitespace-nowrap">
      <span
        data-flagged={flagged || undefined}
        className={`rounded px-1.5 py-0.5 text-2xs font-semibold ${flagged ? 'bg-red-500/15 text-red-300' : status === 'pending' ? 'bg-amber-500/15 text-amber-300' : 'bg-emerald-500/15 text-emerald-300'}`}
      >
        {status}
      </span>
      {details && <DetailsButton details={details} />}
    </span>
  );
}
