import { WEEK_DAYS, WEEK_DAY_LABELS, WEEK_DAY_NAMES, formatWeekDays, parseWeekDays } from '@/api/contracts/time-range';
import { ToggleGroup, ToggleItem } from './toggle-group';

/**
 * The day-of-week picker (labels Su, M, T, W, Th, F, S): a toggle group over a comma-separated day list
 * (a monitor's repeat_week_days). Shared by the reports and the monitor editor.
 */
export function DayOfWeekPicker({ value, onChange, label = 'Days of the week', disabled }: { value: string; onChange(next: string): void; label?: string; disabled?: boolean }) {
  return (
    <ToggleGroup label={label} value={parseWeekDays(value)} onChange={(days) => onChange(formatWeekDays(days))} {...(disabled !== undefined ? { disabled } : {})}>
      {WEEK_DAYS.map((d) => (
        <ToggleItem key={d} value={d} label={WEEK_DAY_NAMES[d]}>
          {WEEK_DAY_LABELS[d]}
        </ToggleItem>
      ))}
    </ToggleGroup>
  );
}
