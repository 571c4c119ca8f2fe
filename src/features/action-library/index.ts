import type { FeatureModule } from '@/panes/feature-module';
import { LIBRARY_PANE, PREVIEW_PANE } from './commands';
import { LibraryPane } from './library-pane';
import { PreviewModalHost, PreviewPane } from './preview';
import { QUEUE_PANE } from './draft-commands';
import { QueuePane } from './queue-pane';

/** The Action library: list, detail, preview, in-place edits, approval and rejection (issue 6). */
export const actionLibraryFeature: FeatureModule = {
  id: 'action-library',
  panes: [
    { id: LIBRARY_PANE, component: LibraryPane },
    { id: PREVIEW_PANE, component: PreviewPane },
    { id: QUEUE_PANE, component: QueuePane },
  ],
  globals: [PreviewModalHost],
};
