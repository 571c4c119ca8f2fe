import type { FeatureModule } from '@/panes/feature-module';
import { RunAllActionsModal } from './run-all-modal';

export const runFeature: FeatureModule = {
  id: 'run',
  globals: [RunAllActionsModal],
};
