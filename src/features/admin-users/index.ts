import type { FeatureModule } from '@/panes/feature-module';
import { UsersPane } from './users-pane';

export const adminUsersFeature: FeatureModule = {
  id: 'admin-users',
  panes: [{ id: 'admin-users', component: UsersPane }],
};
