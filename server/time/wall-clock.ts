/**
 * Wall-clock time in an IANA time zone, from the runtime's time zone data (Intl): what a monitor's
 * schedule and a report's local days are computed in. A wall time that does not exist (the
 * spring-forward gap) maps to the instant the same distance after the gap; one that happens twice
 * (fall back) to its first occurrence.
 */

const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock time of an instant in a timezone, as milliseconds of a UTC date with those fields. */
export function wallMs(utc: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(utc)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const base = Math.floor(utc / 1000) * 1000;
  const ms = utc - base;
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0) + ms;
}

/** The timezone's offset (wall minus UTC) at an instant. */
const offsetAt = (utc: number, tz: string) => wallMs(utc, tz) - utc;

/** The instant of a wall-clock time (see the module comment for gaps and repeated hours). */
export function localToUtc(wall: number, tz: string): number {
  const before = offsetAt(wall - DAY, tz);
  const after = offsetAt(wall + DAY, tz);
  const valid = [...new Set([before, after])].map((o) => wall - o).filter((t) => offsetAt(t, tz) === wall - t);
  if (valid.length) return Math.min(...valid);
  return wall - before;
}

