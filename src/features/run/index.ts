import type { FeatureModule } from '@/panes/feature-module';
import { runCommands } from './commands';
import { RunAllActionsModal } from './run-all-modal';

export const runFeature: FeatureModule = {
  id: 'run',
  commands: runCommands,
  globals: [RunAllActionsModal],
};
