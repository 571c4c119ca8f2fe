import { useCallback, useContext, useEffect, useRef } from 'react';
import { usePaneInstance } from '@/commands/pane-instance';
import type { DockControl } from '@/commands/types';
import { WorkbenchContext } from './pane-context';

/**
 * While mounted in a workbench, closing this pane (its tab's close button, Close Pane, Close Others)
 * first calls `guard`; when it answers false the pane stays open. The latest guard is always used.
 */
export function useCloseGuard(guard: () => boolean | Promise<boolean>): void {
  const workbench = useContext(WorkbenchContext);
  const { id } = usePaneInstance();
  const latest = useRef(guard);
  latest.current = guard;
  useEffect(() => workbench?.controller.guardClose(id, () => latest.current()), [workbench, id]);
}

/**
 * A dock for work started from this pane (a script run): panes it opens appear beside this one, never
 * over it, and it may not close this pane. Undefined outside a workbench.
 */
export function useDockKeepingThisPane(): () => DockControl | undefined {
  const workbench = useContext(WorkbenchContext);
  const { id } = usePaneInstance();
  return useCallback(() => {
    if (!workbench) return undefined;
    const panel = workbench.controller.dock?.getPanel(id);
    return workbench.controller.keepingInPlace(id, panel?.title ?? 'this');
  }, [workbench, id]);
}
