import { proxy } from 'valtio';
import type { CreatedBulkToken } from '@/api/contracts/actors';

/**
 * The Actors pane's state that commands and components share: the selected bulk token (what the
 * palette commands act on), the one expanded row (MON-071), the modals, and the secret of the token
 * just created (held in memory only, shown once).
 */
export const actorsStore = proxy<{
  selectedId: number | null;
  expandedId: number | null;
  installerFor: number | null;
  registerPushFor: number | null;
  createOpen: boolean;
  created: (CreatedBulkToken & { name: string }) | null;
}>({ selectedId: null, expandedId: null, installerFor: null, registerPushFor: null, createOpen: false, created: null });

/** Refresh pauses while any of the pane's modals is open (section 4, Refresh behaviour). */
export const modalOpen = (s: { installerFor: number | null; registerPushFor: number | null; createOpen: boolean }) =>
  s.installerFor !== null || s.registerPushFor !== null || s.createOpen;
