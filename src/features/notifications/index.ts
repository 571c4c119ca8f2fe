import type { FeatureModule } from '@/panes/feature-module';
import { BackgroundProcessPoller } from './background-processes';
import { ContentServiceBanner } from './content-service-banner';

export const notificationsFeature: FeatureModule = {
  id: 'notifications',
  globals: [BackgroundProcessPoller, ContentServiceBanner],
};
