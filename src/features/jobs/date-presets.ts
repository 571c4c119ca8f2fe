// One module each, not the 'date-fns' index: the index would pull all of date-fns (and its locale)
// into the workbench chunk, which captures everything this eager module reaches (workbench-chunk.ts).
import { endOfDay } from 'date-fns/endOfDay';
import { endOfMonth } from 'date-fns/endOfMonth';
import { startOfDay } from 'date-fns/startOfDay';
import { startOfMonth } from 'date-fns/startOfMonth';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';

/** Presets of the date-range picker (JOB-009); ranges never end after now (the picker's maximum). */
export const DATE_PRESETS = ['today', 'yesterday', 'last_7_days', 'last_30_days', 'this_month', 'last_month'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last_7_days: 'Last 7 Days',
  last_30_days: 'Last 30 Days',
  this_month: 'This Month',
  last_month: 'Last Month',
};

/** A preset in local time: from 00:00 of its first day to the end of its last day, or now. */
export function datePresetRange(preset: DatePreset, now: Date): { start: Date; end: Date } {
  const end = (d: Date) => new Date(Math.min(endOfDay(d).getTime(), now.getTime()));
  switch (preset) {
    case 'today':
      return { start: startOfDay(now), end: now };
    case 'yesterday': {
      const y = subDays(now, 1);
      return { start: startOfDay(y), end: end(y) };
    }
    case 'last_7_days':
      return { start: startOfDay(subDays(now, 6)), end: now };
    case 'last_30_days':
      return { start: startOfDay(subDays(now, 29)), end: now };
    case 'this_month':
      return { start: startOfMonth(now), end: now };
    case 'last_month': {
      const m = subMonths(now, 1);
      return { start: startOfMonth(m), end: end(endOfMonth(m)) };
    }
  }
}

/** The value of a datetime-local input (minutes, local time). */
export function toLocalInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A picked end minute covers the whole minute. */
export const endOfMinute = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000 + 59_999);

export function fromLocalInput(v: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}
