import type { FeatureModule } from '@/panes/feature-module';
import { NetworkMapPane } from './network-map-pane';

/** The Network Map: zones, actors and devices drawn with @antv/x6, six layouts saved per user. */
export const networkMapFeature: FeatureModule = {
  id: 'network-map',
  panes: [{ id: 'network-map', component: NetworkMapPane }],
};
