import { proxy } from 'valtio';

/** The monitor the list has selected (commands act on it when no monitor is named). */
export interface CurrentMonitor {
  id: number;
  name: string;
  paused: boolean;
}

/** What the Monitors panes share with their commands: the selection and the drift list's visibility. */
export const monitorStore = proxy<{ current: CurrentMonitor | null; showDrift: boolean }>({ current: null, showDrift: false });

/** Handlers the mounted panes register (functions stay outside the proxy). */
export const monitorPaneHandlers: {
  move: ((step: 1 | -1) => void) | null;
  focusSearch: (() => void) | null;
  save: (() => Promise<unknown>) | null;
  discard: (() => void) | null;
} = { move: null, focusSearch: null, save: null, discard: null };
