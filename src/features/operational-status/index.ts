import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** Operational status (/operational_status, MON-006). Commands: src/app/feature-commands.ts. */
export const operationalStatusFeature: FeatureModule = {
  id: 'operational-status',
  panes: [{ id: 'operational-status', component: lazyPane(() => import('./status-pane'), 'OperationalStatusPane') }],
};
