import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { SIMULATION_PANE, SIMULATIONS_PANE } from './commands';

/** Sequences and evaluations: the list, one simulation, and the Simulation preview modal. */
export const simulationsFeature: FeatureModule = {
  id: 'simulations',
  panes: [
    { id: SIMULATIONS_PANE, component: lazyPane(() => import('./simulations-pane'), 'SimulationsPane') },
    { id: SIMULATION_PANE, component: lazyPane(() => import('./simulation-pane'), 'SimulationPane') },
  ],
  globals: [lazyGlobal(() => import('./preview'), 'SimulationPreviewHost')],
};
