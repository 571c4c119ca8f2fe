import { proxy } from 'valtio';
import { ACTORS_REPOLL_LIMIT_MIN, BULK_REFRESH_MS, type CreatedBulkToken } from '@/api/contracts/actors';
import { repollLimitReached } from '@/ui/poll-limit';

/**
 * The Actors pane's state that commands and components share: the selected bulk token (what the
 * palette commands act on), the one expanded row (MON-071), the modals, and the secret of the token
 * just created (held in memory only, shown once), and since when the tables have been refreshing.
 */
export const actorsStore = proxy<{
  selectedId: number | null;
  expandedId: number | null;
  installerFor: number | null;
  registerPushFor: number | null;
  createOpen: boolean;
  created: (CreatedBulkToken & { name: string }) | null;
  /** When the refreshing began (the pane opened, or the user resumed it), ms. */
  pollingSince: number;
  /** The re-poll time limit was reached: neither table refreshes until actors.resumeRefresh (MON-185). */
  pollingStopped: boolean;
}>({ selectedId: null, expandedId: null, installerFor: null, registerPushFor: null, createOpen: false, created: null, pollingSince: Date.now(), pollingStopped: false });

/** Refresh pauses while any of the pane's modals is open (section 4, Refresh behaviour). */
export const modalOpen = (s: { installerFor: number | null; registerPushFor: number | null; createOpen: boolean }) =>
  s.installerFor !== null || s.registerPushFor !== null || s.createOpen;

/** Both tables refresh again from now (the pane opened, or the user resumed it). */
export function startPolling(now = Date.now()): void {
  actorsStore.pollingSince = now;
  actorsStore.pollingStopped = false;
}

/**
 * The bulk table's next refresh (react-query's refetchInterval): none while a modal is open (section 4)
 * or once the re-poll time limit is reached, which stops the pending list too (MON-185).
 */
export function bulkRefetchInterval(now = Date.now()): number | false {
  if (actorsStore.pollingStopped) return false;
  if (repollLimitReached(actorsStore.pollingSince, now, ACTORS_REPOLL_LIMIT_MIN)) {
    actorsStore.pollingStopped = true;
    return false;
  }
  return modalOpen(actorsStore) ? false : BULK_REFRESH_MS;
}
