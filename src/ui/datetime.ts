/**
 * The one way Vigil shows a point in time: ISO-like, 24-hour, in the user's time zone (their profile's,
 * set by the workbench from the environment; the browser's until then), e.g. 2026-11-26 17:42, with
 * seconds where a log needs them (2026-11-26 17:42:05).
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayOf = (d: Date) => `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const minutesOf = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const secondsOf = (d: Date) => `${minutesOf(d)}:${pad(d.getSeconds())}`;

/**
 * `d`'s local fields as yyyy-MM-dd HH:mm (or HH:mm:ss with `seconds`): the fixed patterns Vigil shows,
 * written out, so the workbench's first download carries no date formatting library.
 */
export function formatLocal(d: Date, opts: { seconds?: boolean } = {}): string {
  return `${dayOf(d)} ${opts.seconds ? secondsOf(d) : minutesOf(d)}`;
}

type When = string | number | Date | null | undefined;

/** The display zone's name, and its formatter once a timestamp has been shown (undefined: not made yet; null: the browser's zone). */
let zoneName: string | null = null;
let zoneParts: Intl.DateTimeFormat | null | undefined = null;

/**
 * Shows every timestamp in `timeZone` (an IANA name such as Europe/Berlin); null or an unknown name: the
 * browser's zone. The formatter is built when the first timestamp is shown: building one for a zone
 * loads the zone's data (about 70 ms under 4x CPU slowdown), which the workbench's first render (the
 * Start pane shows no time) should not wait for.
 */
export function setDisplayTimeZone(timeZone: string | null | undefined): void {
  if ((timeZone ?? null) === zoneName) return;
  zoneName = timeZone || null;
  zoneParts = zoneName ? undefined : null;
}

function zoneFormatter(): Intl.DateTimeFormat | null {
  if (zoneParts !== undefined) return zoneParts;
  try {
    zoneParts = new Intl.DateTimeFormat('en-US', { timeZone: zoneName!, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  } catch {
    // Not a zone this browser knows: keep the browser's own.
    zoneParts = null;
  }
  return zoneParts;
}

/** The user's profile time zone once the workbench set it (null: the browser's zone is shown). */
export const displayTimeZone = (): string | null => zoneName;

/**
 * The IANA zone the user's days are in, the one times are shown in (MON-051: a report range's days of
 * the week are these days): the profile's zone once set and known here, else the runtime's (UTC when it
 * does not tell).
 */
export const userTimeZone = (): string => (zoneFormatter() ? zoneName! : Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/** The wall-clock time of `d` in the display zone, as a Date whose local fields are then formatted. */
function wallClock(d: Date): Date {
  const zone = zoneFormatter();
  if (!zone) return d;
  const parts = zone.formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return new Date(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'), d.getMilliseconds());
}

function toDate(value: When): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : wallClock(d);
}

/** A timestamp as shown everywhere; `fallback` when there is none (or it is not a date). */
export function formatTimestamp(value: When, opts: { seconds?: boolean; fallback?: string } = {}): string {
  const d = toDate(value);
  return d ? formatLocal(d, opts) : (opts.fallback ?? '—');
}

/** The date part only, in the same style. */
export function formatDay(value: When, fallback = '—'): string {
  const d = toDate(value);
  return d ? dayOf(d) : fallback;
}

/** The time of day only (HH:mm:ss), e.g. "Checked 17:42:05". */
export function formatTimeOfDay(value: When, fallback = '—'): string {
  const d = toDate(value);
  return d ? secondsOf(d) : fallback;
}
