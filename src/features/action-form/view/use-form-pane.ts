/** The form's pane in the workbench: its tab title ('Edit Action {vid}') and closing it for the Actions list, the saved Action selected. */
import { useContext, useEffect } from 'react';
import type { LoadedAction } from '@/api/contracts/action-form';
import { WorkbenchContext } from '@/panes/pane-context';
import type { FormMode } from '../form-model';
import type { FormPaneKind } from '../pane-context';

const NOTICE_ACTIONS_URL = '/manage_sims/actions';
/** The library with one Action selected: /manage_sims/action/{vid}. */
const SAVED_ACTION_URL = '/manage_sims/action';

export function useFormPane(paneKind: FormPaneKind, paneParams: Record<string, string>, mode: FormMode, loaded: LoadedAction | null): { close(savedVid?: string): void } {
  const workbench = useContext(WorkbenchContext);
  const panelId = workbench ? workbench.controller.keyFor({ kind: paneKind, params: paneParams }) : null;
  useEffect(() => {
    if (!workbench || !panelId || !loaded) return;
    const t = mode === 'edit' ? `Edit Action ${loaded.vid}` : mode === 'clone' ? `Clone Action ${loaded.vid}` : null;
    if (t) workbench.controller.dock?.getPanel(panelId)?.api.setTitle(t);
  }, [workbench, panelId, loaded, mode]);
  return {
    close: (savedVid) => {
      if (!workbench) return;
      if (panelId) workbench.controller.dock?.getPanel(panelId)?.api.close();
      workbench.controller.openUrl(savedVid ? `${SAVED_ACTION_URL}/${encodeURIComponent(savedVid)}` : NOTICE_ACTIONS_URL);
    },
  };
}
