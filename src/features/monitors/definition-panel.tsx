import { ExpandingTextArea } from '@/ui/expanding-textarea';
import { displayTimeZone } from '@/ui/datetime';
import { useId } from 'react';
import {
  DETECTION_TIMEOUT_MAX,
  EXTRA_SLEEP_MAX,
  FIRST_RUN_RANGE_DAYS,
  MONTHLY_FREQUENCIES,
  MONTHLY_FREQUENCY_LABELS,
  PERIOD_TYPES,
  PERIOD_TYPE_LABELS,
  timezoneMismatchNotice,
  todayIn,
  type MonitorBody,
  type MonitorGroupOption,
  type PeriodType,
} from '@/api/contracts/monitors';
import { scheduleInWords } from '@/api/contracts/monitor-schedule';
import { WEEKDAYS, WEEKDAY_NAMES } from '@/api/contracts/weekdays';
import { DayOfWeekPicker } from '@/ui/day-of-week-picker';

const input = 'rounded border border-line bg-surface px-2 py-1 text-sm';
const Err = ({ errors, path }: { errors: Record<string, string[]>; path: string }) =>
  errors[path] ? <span className="text-xs text-red-400">{errors[path]?.join(' ')}</span> : null;

/** 'YYYY-MM-DD HH:mm' <-> the datetime-local input's 'YYYY-MM-DDTHH:mm'. */
const toInput = (v: string) => v.replace(' ', 'T');
const fromInput = (v: string) => v.replace('T', ' ').slice(0, 16);

/** The day FIRST_RUN_RANGE_DAYS after a date (MON-083: the picker's range end). */
export function rangeEnd(runtime: string): string {
  const d = new Date(`${runtime.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  d.setUTCDate(d.getUTCDate() + FIRST_RUN_RANGE_DAYS);
  return `${d.toISOString().slice(0, 10)}T23:59`;
}

/** MON-009: name, description, monitor group typeahead (or a new group), first run, repeat, extra sleep. */
export function DefinitionPanel({ body, groups, errors, onChange }: { body: MonitorBody; groups: MonitorGroupOption[]; errors: Record<string, string[]>; onChange(patch: Partial<MonitorBody>): void }) {
  const id = useId();
  const groupName = body.new_monitor_group || groups.find((g) => g.id === body.monitor_group)?.name || '';
  const setGroup = (text: string) => {
    const known = groups.find((g) => g.name.toLowerCase() === text.trim().toLowerCase());
    onChange(known ? { monitor_group: known.id, new_monitor_group: '' } : { monitor_group: null, new_monitor_group: text });
  };
  const min = `${todayIn(body.timezone)}T00:00`;
  // MON-162: against the user's profile time zone (the environment's userTimeZone), not the monitor's.
  const profileZone = displayTimeZone();
  const mismatch = profileZone ? timezoneMismatchNotice(profileZone) : null;
  return (
    <section aria-label="Monitor definition" className="grid grid-cols-2 gap-3">
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">Name</span>
        <input className={input} value={body.name} onChange={(e) => onChange({ name: e.target.value })} aria-invalid={!!errors.name} />
        <Err errors={errors} path="name" />
      </label>
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">Monitor Group</span>
        <input className={input} list={`${id}-groups`} value={groupName} onChange={(e) => setGroup(e.target.value)} placeholder="Choose or type a new group" />
        <datalist id={`${id}-groups`}>
          {groups.map((g) => (
            <option key={g.id} value={g.name} />
          ))}
        </datalist>
        {body.new_monitor_group.trim() && <span className="text-2xs text-muted">A new group "{body.new_monitor_group.trim()}" is created on save.</span>}
      </label>
      <label className="col-span-2 flex flex-col gap-1 text-xs">
        <span className="text-muted">Description</span>
        <ExpandingTextArea className={input} value={body.description} onChange={(e) => onChange({ description: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">First Run</span>
        <input
          type="datetime-local"
          step={60}
          min={min}
          max={rangeEnd(body.monitor_runtime) || undefined}
          className={input}
          value={toInput(body.monitor_runtime)}
          onChange={(e) => onChange({ monitor_runtime: fromInput(e.target.value) })}
          aria-invalid={!!errors.monitor_runtime}
        />
        <Err errors={errors} path="monitor_runtime" />
      </label>
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">Timezone</span>
        <input className={input} value={body.timezone} onChange={(e) => onChange({ timezone: e.target.value })} aria-invalid={!!errors.timezone} />
        <Err errors={errors} path="timezone" />
      </label>
      {mismatch && (
        <p role="note" className="col-span-2 text-2xs text-amber-500">
          {mismatch}
        </p>
      )}
      <div className="flex gap-2">
        <label className="flex w-24 flex-col gap-1 text-xs">
          <span className="text-muted">Repeat Every</span>
          <input type="number" min={1} className={input} value={body.repeat_job_period_number} onChange={(e) => onChange({ repeat_job_period_number: e.target.valueAsNumber })} aria-invalid={!!errors.repeat_job_period_number} />
        </label>
        <label className="flex flex-1 flex-col gap-1 text-xs">
          <span className="text-muted">Repeat Period</span>
          <select className={input} value={body.repeat_job_period_type} onChange={(e) => onChange({ repeat_job_period_type: e.target.value as PeriodType })}>
            {PERIOD_TYPES.map((p) => (
              <option key={p} value={p}>
                {PERIOD_TYPE_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">Extra Sleep (seconds)</span>
        <input type="number" min={0} max={EXTRA_SLEEP_MAX} className={input} value={body.extra_sleep} onChange={(e) => onChange({ extra_sleep: e.target.valueAsNumber })} aria-invalid={!!errors.extra_sleep} />
        <Err errors={errors} path="extra_sleep" />
      </label>
      <div className="col-span-2">
        <Err errors={errors} path="repeat_job_period_number" />
      </div>
      {body.repeat_job_period_type === 'weeks' && (
        <fieldset className="col-span-2 flex flex-col gap-1 text-xs">
          <legend className="text-muted">Repeat On</legend>
          <DayOfWeekPicker label="Weekdays" value={body.repeat_week_days} onChange={(repeat_week_days) => onChange({ repeat_week_days })} />
          <Err errors={errors} path="repeat_week_days" />
        </fieldset>
      )}
      {body.repeat_job_period_type === 'months' && (
        <div className="col-span-2 flex gap-2">
          <label className="flex flex-1 flex-col gap-1 text-xs">
            <span className="text-muted">Frequency</span>
            <select className={input} value={body.repeat_monthly_frequency} onChange={(e) => onChange({ repeat_monthly_frequency: e.target.value })}>
              <option value="">Choose…</option>
              {MONTHLY_FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {MONTHLY_FREQUENCY_LABELS[f]}
                </option>
              ))}
            </select>
            <Err errors={errors} path="repeat_monthly_frequency" />
          </label>
          <label className="flex flex-1 flex-col gap-1 text-xs">
            <span className="text-muted">Day of the Week</span>
            <select className={input} value={body.repeat_day_of_the_week} onChange={(e) => onChange({ repeat_day_of_the_week: e.target.value })}>
              <option value="">Choose…</option>
              {WEEKDAYS.map((d) => (
                <option key={d} value={d}>
                  {WEEKDAY_NAMES[d]}
                </option>
              ))}
            </select>
            <Err errors={errors} path="repeat_day_of_the_week" />
          </label>
        </div>
      )}
      <p className="col-span-2 text-xs text-muted" aria-live="polite">
        Runs {scheduleInWords(body)}.
      </p>
      <details className="col-span-2 rounded border border-line px-2 py-1 text-xs">
        <summary className="cursor-pointer font-semibold">Advanced Settings</summary>
        <label className="mt-2 flex w-64 flex-col gap-1">
          <span className="text-muted">Timeout for Monitor Event Detection (seconds)</span>
          <input
            type="number"
            min={0}
            max={DETECTION_TIMEOUT_MAX}
            className={input}
            value={body.detection_timeout_seconds}
            onChange={(e) => onChange({ detection_timeout_seconds: e.target.valueAsNumber })}
            aria-invalid={!!errors.detection_timeout_seconds}
          />
          <Err errors={errors} path="detection_timeout_seconds" />
          <span className="text-2xs text-muted">How long after a run's last action the integrations' events still count as its detection.</span>
        </label>
      </details>
    </section>
  );
}
