import { proxy } from 'valtio';
import type { LayoutMode, Point } from '@/api/contracts/topology';

/**
 * The Network Map's state shared by its commands and its pane: the layout mode, the item Lens
 * centres on, the selected item, the operator's own (Tweak) positions, and a counter the pane
 * watches to fit the map to its view.
 */
export const networkMapStore = proxy<{
  mode: LayoutMode;
  focus: string | null;
  selected: string | null;
  positions: Record<string, Point>;
  fitRequests: number;
}>({ mode: 'Standard', focus: null, selected: null, positions: {}, fitRequests: 0 });
