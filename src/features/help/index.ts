import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** The product's help pages (/help/{file}). Commands (one per page): src/app/feature-commands.ts. */
export const helpFeature: FeatureModule = {
  id: 'help',
  panes: [{ id: 'help', component: lazyPane(() => import('./help-pane'), 'HelpPane') }],
};
