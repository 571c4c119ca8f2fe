import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';
import { SavedScriptCommands } from './saved-script-commands';

export const scriptsFeature: FeatureModule = {
  id: 'scripts',
  panes: [{ id: 'scripts', component: lazyPane(() => import('./scripts-pane'), 'ScriptsPane') }],
  globals: [SavedScriptCommands],
};
