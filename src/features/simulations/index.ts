import type { FeatureModule } from '@/panes/feature-module';
import { SIMULATION_PANE, SIMULATIONS_PANE, simulationCommands } from './commands';
import { SimulationPreviewHost } from './preview';
import { SimulationPane } from './simulation-pane';
import { SimulationsPane } from './simulations-pane';

/** Sequences and evaluations: the list, one simulation, and the Simulation preview modal. */
export const simulationsFeature: FeatureModule = {
  id: 'simulations',
  commands: simulationCommands,
  panes: [
    { id: SIMULATIONS_PANE, title: 'Simulations', routes: ['/simulations'], query: ['sim_type', 'vid'], identity: ['sim_type'], description: 'Sequences and Evaluations', component: SimulationsPane },
    { id: SIMULATION_PANE, title: 'Simulation {vid}', routes: ['/simulation/:vid'], query: ['sim_type'], listed: false, component: SimulationPane },
  ],
  globals: [SimulationPreviewHost],
};
