import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';

export const adminUsersFeature: FeatureModule = {
  id: 'admin-users',
  panes: [{ id: 'admin-users', component: lazyPane(() => import('./users-pane'), 'UsersPane') }],
  globals: [lazyGlobal(() => import('./users-dialogs'), 'UsersDialogs')],
};
