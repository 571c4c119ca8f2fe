import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { LIBRARY_PANE, PREVIEW_PANE } from './commands';
import { QUEUE_PANE } from './draft-commands';

/** The Action library: list, detail, preview, in-place edits, approval and rejection (issue 6). */
export const actionLibraryFeature: FeatureModule = {
  id: 'action-library',
  panes: [
    { id: LIBRARY_PANE, component: lazyPane(() => import('./library-pane'), 'LibraryPane') },
    { id: PREVIEW_PANE, component: lazyPane(() => import('./preview'), 'PreviewPane') },
    { id: QUEUE_PANE, component: lazyPane(() => import('./queue-pane'), 'QueuePane') },
  ],
  globals: [lazyGlobal(() => import('./preview'), 'PreviewModalHost')],
};
