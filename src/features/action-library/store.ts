import { proxy } from 'valtio';
import { type ActionType } from '@/api/contracts/vocabulary';

/** The Action the library shows in its detail panel (and that commands act on by default). */
export interface CurrentAction {
  id: number;
  vid: string;
  name: string;
  action_type: ActionType;
  approved: boolean;
  require_protected: boolean;
  vendor: boolean;
}

/**
 * What the library pane shares with its commands: the current Action, the multi-selection, the
 * versions the user was shown (an approval refers to the version reviewed), the preview modal, and
 * the pane's own handlers (moving the selection, focusing the search) while it is mounted.
 */
export const libraryStore = proxy<{
  current: CurrentAction | null;
  selectedVids: string[];
  /** The selected rows' ids and names, in list order (for 'Add all'). */
  selectedItems: { id: number; name: string }[];
  /** The tag filter's tag ids. */
  activeTagIds: number[];
  seenVersions: Record<number, number>;
  previewId: number | null;
  focusSearchPending: boolean;
}>({
  current: null,
  selectedVids: [],
  selectedItems: [],
  activeTagIds: [],
  seenVersions: {},
  previewId: null,
  focusSearchPending: false,
});

/** Handlers the mounted library pane registers (functions stay outside the proxy). */
export const paneHandlers: { move: ((step: 1 | -1) => void) | null; focusSearch: (() => void) | null } = { move: null, focusSearch: null };

export function rememberVersion(id: number, version: number): void {
  if (libraryStore.seenVersions[id] !== version) libraryStore.seenVersions[id] = version;
}

export function clearSelection(): void {
  libraryStore.current = null;
  libraryStore.selectedVids = [];
  libraryStore.selectedItems = [];
}
