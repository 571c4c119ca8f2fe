import { differenceInMinutes } from 'date-fns';

/**
 * The polling limit helper (MON-185): whether a screen that has been polling since `since` has reached
 * its re-poll time limit, comparing whole elapsed minutes with the limit. A pane left open then stops
 * asking the director every few seconds until the user resumes it.
 */
export function repollLimitReached(since: number, now: number, limitMinutes: number): boolean {
  return differenceInMinutes(now, since) >= limitMinutes;
}
