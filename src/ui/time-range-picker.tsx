import { useEffect, useId, useRef, useState } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import {
  ABSOLUTE_RANGE_DAYS,
  TIME_RANGE_DEBOUNCE_MS,
  TIME_UNITS,
  TIME_UNIT_LABELS,
  keptWeekdays,
  localDay,
  type TimeRangeConfig,
  type TimeUnit,
} from '@/api/contracts/time-range';
import { DayOfWeekPicker } from './day-of-week-picker';

/**
 * The relative or absolute time range picker (monitors-actors-reporting.md sections 3, 4, 5, 9): a count
 * (a non-negative integer, minimum 1 in the input) of minutes..years back from now, or a start and end
 * (1-minute steps; choosing a start proposes an end 29 days later), with times of day or, unticking
 * Times of day (MON-051 absDateAndTime), by whole days; and the days of the week it keeps (MON-051
 * repeat_week_days; none chosen, every day) behind a Days button. Changes are emitted after `debounceMs` (2000 ms by default;
 * 0 emits at once).
 */

const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localDay(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);
/** A whole-day range (MON-051 absDateAndTime false): the day of an instant, and a day's first or last instant. */
const toLocalDate = (iso: string | null) => (iso ? localDay(new Date(iso)) : '');
const dayEdge = (v: string, edge: 'start' | 'end') => {
  if (!v) return null;
  const d = new Date(`${v.slice(0, 10)}T00:00`);
  if (edge === 'end') d.setHours(23, 59, 59, 999);
  return d.toISOString();
};

/** One end of an absolute range: a date-and-time input, or a date input giving the day's first or last instant. */
function RangeEnd({ edge, iso, times, onValue }: { edge: 'start' | 'end'; iso: string | null; times: boolean; onValue(iso: string | null): void }) {
  return (
    <label className="flex items-center gap-1">
      {edge === 'start' ? 'From' : 'To'}
      <input
        type={times ? 'datetime-local' : 'date'}
        step={times ? 60 : 1}
        aria-label={edge === 'start' ? 'Start' : 'End'}
        className="rounded border border-line bg-surface px-1 py-0.5"
        value={times ? toLocalInput(iso) : toLocalDate(iso)}
        onChange={(e) => onValue(times ? fromLocalInput(e.target.value) : dayEdge(e.target.value, edge))}
      />
    </label>
  );
}

/**
 * The days of the week a range keeps, behind one button ("Days: Every day", "Days: M, F") so a pane's
 * header stays one line: the day picker opens beneath it. No day chosen is every day: the key is then
 * left out, as in a range saved before days existed.
 */
function WeekdaysPopover({ value, onChange }: { value: string; onChange(days: string): void }) {
  const kept = keptWeekdays({ repeat_week_days: value });
  return (
    <Popover className="relative">
      <PopoverButton className={`rounded border px-2 py-0.5 ${kept ? 'border-accent text-accent' : 'border-line'}`}>Days: {kept ? kept.split(',').join(', ') : 'Every day'}</PopoverButton>
      <PopoverPanel focus className="absolute right-0 z-50 mt-1 flex flex-col gap-2 rounded border border-line bg-panel p-2 shadow-xl" aria-label="Days of the week the range keeps">
        <DayOfWeekPicker value={value} onChange={onChange} />
        <button type="button" className="self-start rounded border border-line px-2 py-0.5 text-xs disabled:opacity-50" disabled={!kept} onClick={() => onChange('')}>
          Every day
        </button>
      </PopoverPanel>
    </Popover>
  );
}

export function TimeRangePicker({ value, onChange, debounceMs = TIME_RANGE_DEBOUNCE_MS, label = 'Time range' }: { value: TimeRangeConfig; onChange(next: TimeRangeConfig): void; debounceMs?: number; label?: string }) {
  const [draft, setDraft] = useState(value);
  const id = useId();
  const emit = useRef(onChange);
  emit.current = onChange;
  const last = useRef(JSON.stringify(value));
  useEffect(() => {
    const incoming = JSON.stringify(value);
    if (incoming !== last.current) {
      last.current = incoming;
      setDraft(value);
    }
  }, [value]);
  useEffect(() => {
    const s = JSON.stringify(draft);
    if (s === last.current) return;
    const valid = draft.rangeType === 'abs' ? !draft.start || !draft.end || draft.start <= draft.end : Number.isInteger(draft.relBackCount) && draft.relBackCount >= 0;
    if (!valid) return;
    const fire = () => {
      last.current = s;
      emit.current(draft);
    };
    if (debounceMs <= 0) return fire();
    const t = setTimeout(fire, debounceMs);
    return () => clearTimeout(t);
  }, [draft, debounceMs]);
  const set = (patch: Partial<TimeRangeConfig>) => setDraft((d) => ({ ...d, ...patch }));
  const times = draft.absDateAndTime !== false;
  const countInvalid = draft.rangeType === 'rel' && (!Number.isInteger(draft.relBackCount) || draft.relBackCount < 0);
  return (
    <fieldset className="flex flex-wrap items-center gap-2 text-sm" aria-label={label}>
      <legend className="sr-only">{label}</legend>
      <div role="radiogroup" aria-label="Range type" className="flex gap-2">
        {(['rel', 'abs'] as const).map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input type="radio" name={`${id}-type`} checked={draft.rangeType === t} onChange={() => set({ rangeType: t })} />
            {t === 'rel' ? 'Relative' : 'Absolute'}
          </label>
        ))}
      </div>
      {draft.rangeType === 'rel' ? (
        <>
          <label className="flex items-center gap-1">
            Last
            <input
              type="number"
              min={1}
              step={1}
              aria-label="Count"
              aria-invalid={countInvalid}
              className="w-20 rounded border border-line bg-surface px-1 py-0.5"
              value={Number.isNaN(draft.relBackCount) ? '' : draft.relBackCount}
              onChange={(e) => set({ relBackCount: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
            />
          </label>
          <select aria-label="Unit" className="rounded border border-line bg-surface px-1 py-0.5" value={draft.relUnit} onChange={(e) => set({ relUnit: e.target.value as TimeUnit })}>
            {TIME_UNITS.map((u) => (
              <option key={u} value={u}>
                {TIME_UNIT_LABELS[u]}
              </option>
            ))}
          </select>
          {countInvalid && <span className="text-xs text-red-400">Enter a whole number of 0 or more.</span>}
        </>
      ) : (
        <>
          <RangeEnd
            edge="start"
            iso={draft.start}
            times={times}
            onValue={(start) => {
              const proposed = start && new Date(Date.parse(start) + ABSOLUTE_RANGE_DAYS * 86_400_000).toISOString();
              const end = start && !draft.end ? (times ? proposed : dayEdge(toLocalDate(proposed), 'end')) : draft.end;
              set({ start, end });
            }}
          />
          <RangeEnd edge="end" iso={draft.end} times={times} onValue={(end) => set({ end })} />
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={times}
              onChange={(e) =>
                // By whole days: the chosen instants widen to their days; with times they are kept as they are.
                set(e.target.checked ? { absDateAndTime: true } : { absDateAndTime: false, start: draft.start && dayEdge(toLocalDate(draft.start), 'start'), end: draft.end && dayEdge(toLocalDate(draft.end), 'end') })
              }
            />
            Times of day
          </label>
          {draft.start && draft.end && draft.start > draft.end && <span className="text-xs text-red-400">The range starts after it ends.</span>}
        </>
      )}
      <WeekdaysPopover value={draft.repeat_week_days ?? ''} onChange={(days) => setDraft(({ repeat_week_days: _, ...rest }) => (days ? { ...rest, repeat_week_days: days } : rest))} />
    </fieldset>
  );
}
