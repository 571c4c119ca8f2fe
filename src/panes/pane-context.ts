import { createContext, useContext } from 'react';
import type { DockController } from './dock-controller';
import type { PaneRegistry } from './registry';

export interface WorkbenchServices {
  panes: PaneRegistry;
  controller: DockController;
}

export const WorkbenchContext = createContext<WorkbenchServices | null>(null);

export function useWorkbench(): WorkbenchServices {
  const ctx = useContext(WorkbenchContext);
  if (!ctx) throw new Error('useWorkbench must be used inside the workbench');
  return ctx;
}
