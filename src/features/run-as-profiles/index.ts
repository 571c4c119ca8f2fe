import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** Run-as user profiles (/action_user_profiles): the accounts host_cli Actions run as. Commands: src/app/feature-commands.ts. */
export const runAsProfilesFeature: FeatureModule = {
  id: 'run-as-profiles',
  panes: [{ id: 'action-user-profiles', component: lazyPane(() => import('./profiles-pane'), 'ProfilesPane') }],
};
