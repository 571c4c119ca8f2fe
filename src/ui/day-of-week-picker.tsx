import { WEEKDAYS, WEEKDAY_NAMES, formatWeekdays, parseWeekdays } from '@/api/contracts/weekdays';
import { ToggleGroup, ToggleItem } from './toggle-group';

/**
 * The day-of-week picker (MON-178 labels Su, M, T, W, Th, F, S; each button named by its day's full
 * name) over a comma-separated day list such as 'M,Th': a monitor's repeat_week_days and a report
 * range's. Shared by the monitor editor and the time range picker.
 */
export function DayOfWeekPicker({ value, onChange, label = 'Days of the week', disabled }: { value: string; onChange(next: string): void; label?: string; disabled?: boolean }) {
  return (
    <ToggleGroup label={label} value={parseWeekdays(value)} onChange={(days) => onChange(formatWeekdays(days))} {...(disabled !== undefined ? { disabled } : {})}>
      {WEEKDAYS.map((d) => (
        <ToggleItem key={d} value={d} label={WEEKDAY_NAMES[d]}>
          {d}
        </ToggleItem>
      ))}
    </ToggleGroup>
  );
}
