import { networkQuery } from '@/api/network-map';
import type { FeatureModule } from '@/panes/feature-module';
import type { PanePrefetch } from '@/panes/types';
import { previewQuery } from './api';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { SIMULATION_CLONE_PANE, SIMULATION_EDIT_PANE, SIMULATION_PANE, SIMULATIONS_PANE } from './commands';
import { SELECT_NODES_PANE } from './select-nodes-commands';

/** Assign Actors needs the simulation's preview (its steps and reachable actors) and the map: both start at once. */
const prefetchSelectNodes: PanePrefetch = (params, queryClient) => {
  const id = Number(params.sim_id);
  if (!Number.isSafeInteger(id) || id <= 0) return;
  void queryClient.prefetchQuery(previewQuery({ id }));
  void queryClient.prefetchQuery(networkQuery);
};

/** The one-simulation pane and the editors read the simulation's preview by VID. */
const prefetchByVid: PanePrefetch = (params, queryClient) => {
  if (params.vid) void queryClient.prefetchQuery(previewQuery({ vid: params.vid }));
};

/** Sequences and evaluations: the list, one simulation, its editor, actor assignment (select_nodes), and the preview and description modals. */
export const simulationsFeature: FeatureModule = {
  id: 'simulations',
  panes: [
    { id: SIMULATIONS_PANE, component: lazyPane(() => import('./simulations-pane'), 'SimulationsPane') },
    { id: SIMULATION_PANE, component: lazyPane(() => import('./simulation-pane'), 'SimulationPane'), prefetch: prefetchByVid },
    { id: SIMULATION_EDIT_PANE, component: lazyPane(() => import('./editor-pane'), 'SimulationEditPane'), prefetch: prefetchByVid },
    { id: SIMULATION_CLONE_PANE, component: lazyPane(() => import('./editor-pane'), 'SimulationClonePane'), prefetch: prefetchByVid },
    { id: SELECT_NODES_PANE, component: lazyPane(() => import('./select-nodes-pane'), 'SelectNodesPane'), prefetch: prefetchSelectNodes },
  ],
  globals: [lazyGlobal(() => import('./preview'), 'SimulationPreviewHost'), lazyGlobal(() => import('./description'), 'SimulationDescriptionHost')],
};
