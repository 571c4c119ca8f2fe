import { proxy } from 'valtio';
import type { SimulationType } from '@/api/contracts/simulations';

/** The simulation the list shows in its detail panel (and that commands act on by default). */
export interface CurrentSimulation {
  id: number;
  vid: string;
  name: string;
  simulation_type: SimulationType;
}

/** What the Simulations panes share with their commands: the current simulation, the preview and the description modals. */
export const simStore = proxy<{ current: CurrentSimulation | null; preview: CurrentSimulation | null; description: CurrentSimulation | null }>({ current: null, preview: null, description: null });

/** Handlers the mounted list pane registers (functions stay outside the proxy). */
export const simPaneHandlers: { move: ((step: 1 | -1) => void) | null; focusSearch: (() => void) | null } = { move: null, focusSearch: null };
