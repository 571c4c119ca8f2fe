import type { FeatureModule } from '@/panes/feature-module';
import { scriptCommands } from './commands';
import { scriptPaneCommands } from './pane-commands';
import { SavedScriptCommands } from './saved-script-commands';
import { ScriptsPane } from './scripts-pane';

export const scriptsFeature: FeatureModule = {
  id: 'scripts',
  commands: [...scriptCommands, ...scriptPaneCommands],
  panes: [{ id: 'scripts', title: 'Scripts', routes: ['/scripts'], query: ['id', 'run'], identity: [], description: 'Scripted command sequences', component: ScriptsPane }],
  globals: [SavedScriptCommands],
};
