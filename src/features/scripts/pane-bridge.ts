import { proxy } from 'valtio';

/**
 * The focused Scripts pane registers what its pane-local commands act on, so those commands stay
 * plain functions (no React inside `run`).
 */
export const scriptsPaneBridge = proxy<{ run: (() => Promise<unknown>) | null; dryRun: (() => Promise<unknown>) | null; save: (() => Promise<unknown>) | null; stop: (() => void) | null }>({
  run: null,
  dryRun: null,
  save: null,
  stop: null,
});
