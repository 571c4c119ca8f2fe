import { proxy } from 'valtio';

/**
 * The mounted PCAP upload form registers its file picker here, so the "Upload Capture…" command
 * stays a plain function (no React inside `run`).
 */
export const pcapFormBridge = proxy<{ openPicker: (() => void) | null }>({ openPicker: null });
