import { proxy } from 'valtio';

/**
 * The focused Packet View registers what its pane-local commands act on, so the commands stay plain
 * functions (no React inside `run`).
 */
export const packetViewBridge = proxy<{
  id: number | null;
  goTo: ((no: number) => void) | null;
  move: ((delta: number) => void) | null;
  copyHex: (() => Promise<string>) | null;
}>({ id: null, goTo: null, move: null, copyHex: null });
