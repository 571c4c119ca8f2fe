import type { FeatureModule } from '@/panes/feature-module';
import { SIMULATION_PANE, SIMULATIONS_PANE } from './commands';
import { SimulationPreviewHost } from './preview';
import { SimulationPane } from './simulation-pane';
import { SimulationsPane } from './simulations-pane';

/** Sequences and evaluations: the list, one simulation, and the Simulation preview modal. */
export const simulationsFeature: FeatureModule = {
  id: 'simulations',
  panes: [
    { id: SIMULATIONS_PANE, component: SimulationsPane },
    { id: SIMULATION_PANE, component: SimulationPane },
  ],
  globals: [SimulationPreviewHost],
};
