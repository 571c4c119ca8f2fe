import type { FeatureModule } from '@/panes/feature-module';
import { networkMapCommands } from './commands';
import { NetworkMapPane } from './network-map-pane';

/** The Network Map: zones, actors and devices drawn with @antv/x6, six layouts saved per user. */
export const networkMapFeature: FeatureModule = {
  id: 'network-map',
  commands: networkMapCommands,
  panes: [{ id: 'network-map', title: 'Network Map', routes: ['/topology'], description: 'Zones, actors and devices', component: NetworkMapPane }],
};
