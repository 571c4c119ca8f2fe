import { WEEK_DAYS, WEEK_DAY_LABELS, WEEK_DAY_NAMES, formatWeekDays, parseWeekDays } from '@/api/contracts/time-range';

/**
 * The day-of-week picker (labels Su, M, T, W, Th, F, S): toggle buttons over a comma-separated day list
 * (a monitor's repeat_week_days). Shared by the reports and the monitor editor.
 */
export function DayOfWeekPicker({ value, onChange, label = 'Days of the week', disabled }: { value: string; onChange(next: string): void; label?: string; disabled?: boolean }) {
  const days = parseWeekDays(value);
  return (
    <div role="group" aria-label={label} className="flex gap-1">
      {WEEK_DAYS.map((d) => {
        const on = days.includes(d);
        return (
          <button
            key={d}
            type="button"
            disabled={disabled}
            aria-pressed={on}
            aria-label={WEEK_DAY_NAMES[d]}
            title={WEEK_DAY_NAMES[d]}
            className={`h-7 w-8 rounded border text-xs ${on ? 'border-accent bg-accent text-slate-950' : 'border-line bg-surface text-ink'}`}
            onClick={() => onChange(formatWeekDays(on ? days.filter((x) => x !== d) : [...days, d]))}
          >
            {WEEK_DAY_LABELS[d]}
          </button>
        );
      })}
    </div>
  );
}
