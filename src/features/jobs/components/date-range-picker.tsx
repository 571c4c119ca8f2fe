import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { formatTimestamp } from '@/ui/datetime';
import { useState } from 'react';
import { formatFilterRange, parseFilterRange } from '@/api/contracts/jobs';
import { Button } from '@/ui/button';
import { DATE_PRESETS, DATE_PRESET_LABELS, datePresetRange, endOfMinute, fromLocalInput, toLocalInput } from '@/features/jobs/date-presets';

/** The range as shown on the picker's button. */
export function rangeLabel(value: string): string {
  if (!value) return 'Any time';
  const r = parseFilterRange(value);
  if (typeof r === 'string') return 'Any time';
  const f = (d: Date | null) => formatTimestamp(d, { fallback: '…' });
  return `${f(r.start)} – ${f(r.end)}`;
}

/**
 * Date-range picker (JOB-009): presets Today, Yesterday, Last 7 Days, Last 30 Days, This Month, Last
 * Month, or two local date-times with a 1-minute step whose maximum is now. The value is the wire's
 * filterRange ("start,end", ISO).
 */
export function DateRangePicker({ value, onChange }: { value: string; onChange(next: string): void }) {
  const parsed = value ? parseFilterRange(value) : null;
  const current = parsed && typeof parsed !== 'string' ? parsed : { start: null, end: null };
  const [start, setStart] = useState(current.start ? toLocalInput(current.start) : '');
  const [end, setEnd] = useState(current.end ? toLocalInput(current.end) : '');
  const [error, setError] = useState<string | null>(null);
  const max = toLocalInput(new Date());

  return (
    <Popover className="relative">
      <PopoverButton
        className={`inline-flex items-center gap-1 rounded border px-2 py-1 text-sm hover:border-accent ${value ? 'border-accent/70 bg-accent/10' : 'border-line bg-surface'}`}
        aria-label={`Date range: ${rangeLabel(value)}`}
        onClick={() => {
          setStart(current.start ? toLocalInput(current.start) : '');
          setEnd(current.end ? toLocalInput(current.end) : '');
          setError(null);
        }}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current" strokeWidth="1.5">
          <rect x="2" y="3" width="12" height="11" rx="1.5" />
          <path d="M2 6.5h12M5 1.5v3M11 1.5v3" />
        </svg>
        <span className="max-w-56 truncate">{rangeLabel(value)}</span>
      </PopoverButton>
      <PopoverPanel anchor="bottom start" className="z-[1055] w-[26rem] rounded-md border border-line bg-panel p-3 text-sm text-ink shadow-xl" aria-label="Choose a date range">
        {({ close }) => (
          <div className="flex gap-3">
            <ul className="flex w-32 shrink-0 flex-col gap-0.5" aria-label="Presets">
              {DATE_PRESETS.map((p) => (
                <li key={p}>
                  <button
                    type="button"
                    className="w-full rounded px-2 py-1 text-left hover:bg-accent/15 focus-visible:bg-accent/15"
                    onClick={() => {
                      const r = datePresetRange(p, new Date());
                      onChange(formatFilterRange(r.start, r.end));
                      close();
                    }}
                  >
                    {DATE_PRESET_LABELS[p]}
                  </button>
                </li>
              ))}
            </ul>
            <form
              className="flex min-w-0 flex-1 flex-col gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const s = start ? fromLocalInput(start) : null;
                const en = end ? fromLocalInput(end) : null;
                if ((start && !s) || (end && !en)) return setError('Enter dates as shown (year, month, day, hour, minute).');
                if (s && s > new Date()) return setError('The start cannot be in the future.');
                if (s && en && s > en) return setError('The start must be before the end.');
                onChange(s || en ? formatFilterRange(s, en ? new Date(Math.min(endOfMinute(en).getTime(), Date.now())) : null) : '');
                close();
              }}
            >
              <label className="flex flex-col gap-1 text-xs text-muted">
                Start
                <input type="datetime-local" step={60} max={max} value={start} onChange={(e) => setStart(e.target.value)} className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" />
              </label>
              <label className="flex flex-col gap-1 text-xs text-muted">
                End
                <input type="datetime-local" step={60} max={max} value={end} onChange={(e) => setEnd(e.target.value)} className="rounded border border-line bg-surface px-2 py-1 text-sm text-ink" />
              </label>
              {error && (
                <p role="alert" className="text-xs text-red-500">
                  {error}
                </p>
              )}
              <div className="mt-1 flex justify-end gap-2">
                <Button
                  onClick={() => {
                    onChange('');
                    close();
                  }}
                >
                  Clear
                </Button>
                <Button type="submit" variant="primary">
                  Apply
                </Button>
              </div>
            </form>
          </div>
        )}
      </PopoverPanel>
    </Popover>
  );
}
