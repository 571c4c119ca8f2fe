import { proxy } from 'valtio';
import type { RunKind } from './api';

/** The Run All Actions modal: what it runs; null while closed. Rendered once by RunAllActionsModal. */
export const runModal = proxy<{ target: { kind: RunKind; id: number } | null }>({ target: null });
