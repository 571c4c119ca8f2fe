import type { FeatureModule } from '../panes/feature-module';
import { authFeature } from '../features/auth';
import { adminUsersFeature } from '../features/admin-users';
import { notificationsFeature } from '../features/notifications';
import { scriptsFeature } from '../features/scripts';

/** Every feature of the workbench; the only place that knows them all. */
export const FEATURES: readonly FeatureModule[] = [authFeature, notificationsFeature, adminUsersFeature, scriptsFeature];
