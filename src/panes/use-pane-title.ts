import { useContext, useEffect } from 'react';
import { usePaneInstance } from '@/commands/pane-instance';
import { WorkbenchContext } from './pane-context';

/**
 * Names the tab of the pane this component renders in once its content is known ('Control
 * effectiveness' rather than 'Dashboard 4'); nothing outside a workbench or while `title` is empty.
 */
export function usePaneTitle(title: string | null | undefined): void {
  const workbench = useContext(WorkbenchContext);
  const { id } = usePaneInstance();
  useEffect(() => {
    if (title && workbench) workbench.controller.dock?.getPanel(id)?.api.setTitle(title);
  }, [workbench, id, title]);
}
