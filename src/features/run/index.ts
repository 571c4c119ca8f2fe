import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal } from '@/panes/lazy';

export const runFeature: FeatureModule = {
  id: 'run',
  globals: [lazyGlobal(() => import('./run-all-modal'), 'RunAllActionsModal')],
};
