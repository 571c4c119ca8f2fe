import { createContext, useContext } from 'react';
import type { PaneInstance } from './pane-contexts';

/**
 * The pane a component renders in (PaneHost provides it). Command menus, toolbars and buttons inside a
 * pane run their commands with that pane as `ctx.activePane`, so they act on their own pane even when
 * another one has the focus. Outside a workbench (component tests) the kind is '*'.
 */
export const PaneInstanceContext = createContext<PaneInstance>({ id: 'standalone', kind: '*' });

export const usePaneInstance = (): PaneInstance => useContext(PaneInstanceContext);
