/**
 * The days of the week (MON-178 "Day picker labels", Sunday first) and the comma-separated list of them
 * that a monitor's repeat_week_days and a report range's repeat_week_days hold (e.g. 'M,Th').
 */
export const WEEKDAYS = ['Su', 'M', 'T', 'W', 'Th', 'F', 'S'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = { Su: 'Sunday', M: 'Monday', T: 'Tuesday', W: 'Wednesday', Th: 'Thursday', F: 'Friday', S: 'Saturday' };

/** What a list with a day outside WEEKDAYS is refused with. */
export const WEEKDAYS_MESSAGE = 'Weekdays must be among Su, M, T, W, Th, F, S';

const items = (list: string) => list.split(',').map((s) => s.trim()).filter(Boolean);

/** The days of a list, in week order, each once (unknown entries are dropped). */
export function parseWeekdays(list: string): Weekday[] {
  const set = new Set(items(list));
  return WEEKDAYS.filter((d) => set.has(d));
}

/** A list of days in week order: what a picker writes. */
export const formatWeekdays = (days: readonly string[]): string => WEEKDAYS.filter((d) => days.includes(d)).join(',');

/** Whether every entry of a list is a day of WEEKDAYS (the empty list is). */
export const isWeekdayList = (list: string): boolean => items(list).every((d) => (WEEKDAYS as readonly string[]).includes(d));

/** The days of a list as Sunday-based numbers (0 Sunday .. 6 Saturday, as Date.getDay and SQL's dow). */
export const weekdayNumbers = (list: string): number[] => parseWeekdays(list).map((d) => WEEKDAYS.indexOf(d));
