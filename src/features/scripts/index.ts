import type { FeatureModule } from '@/panes/feature-module';
import { SavedScriptCommands } from './saved-script-commands';
import { ScriptsPane } from './scripts-pane';

export const scriptsFeature: FeatureModule = {
  id: 'scripts',
  panes: [{ id: 'scripts', component: ScriptsPane }],
  globals: [SavedScriptCommands],
};
