import type { FeatureModule } from '@/panes/feature-module';
import { adminUsersCommands } from './commands';
import { UsersPane } from './users-pane';

export const adminUsersFeature: FeatureModule = {
  id: 'admin-users',
  commands: adminUsersCommands,
  panes: [{ id: 'admin-users', title: 'Users', routes: ['/admin/users'], permission: 'users.manage', description: 'Add users, set roles, reset passwords', component: UsersPane }],
};
