import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal } from '@/panes/lazy';

export const notificationsFeature: FeatureModule = {
  id: 'notifications',
  globals: [
    lazyGlobal(() => import('./background-processes'), 'BackgroundProcessPoller'),
    lazyGlobal(() => import('./content-service-banner'), 'ContentServiceBanner'),
    lazyGlobal(() => import('./site-banner'), 'SiteBanner'),
    lazyGlobal(() => import('./site-banner'), 'SiteBannerEditor'),
  ],
};
