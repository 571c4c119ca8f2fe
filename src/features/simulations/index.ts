import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { SIMULATION_CLONE_PANE, SIMULATION_EDIT_PANE, SIMULATION_PANE, SIMULATIONS_PANE } from './commands';
import { SELECT_NODES_PANE } from './select-nodes-commands';

/** Sequences and evaluations: the list, one simulation, its editor, actor assignment (select_nodes), and the preview and description modals. */
export const simulationsFeature: FeatureModule = {
  id: 'simulations',
  panes: [
    { id: SIMULATIONS_PANE, component: lazyPane(() => import('./simulations-pane'), 'SimulationsPane') },
    { id: SIMULATION_PANE, component: lazyPane(() => import('./simulation-pane'), 'SimulationPane') },
    { id: SIMULATION_EDIT_PANE, component: lazyPane(() => import('./editor-pane'), 'SimulationEditPane') },
    { id: SIMULATION_CLONE_PANE, component: lazyPane(() => import('./editor-pane'), 'SimulationClonePane') },
    { id: SELECT_NODES_PANE, component: lazyPane(() => import('./select-nodes-pane'), 'SelectNodesPane') },
  ],
  globals: [lazyGlobal(() => import('./preview'), 'SimulationPreviewHost'), lazyGlobal(() => import('./description'), 'SimulationDescriptionHost')],
};
