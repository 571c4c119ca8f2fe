import { proxy } from 'valtio';
import type { RunKind } from './api';

/** The Run All Actions modal: what it runs (with its name and VID for the heading); null while closed. Rendered once by RunAllActionsModal. */
export const runModal = proxy<{ target: { kind: RunKind; id: number; name: string; vid: string | null } | null }>({ target: null });
