import type { FeatureModule } from '@/panes/feature-module';
import { libraryCommands, LIBRARY_PANE, PREVIEW_PANE } from './commands';
import { LibraryPane } from './library-pane';
import { PreviewModalHost, PreviewPane } from './preview';
import { draftCommands, QUEUE_PANE } from './draft-commands';
import { QueuePane } from './queue-pane';

/** The Action library: list, detail, preview, in-place edits, approval and rejection (issue 6). */
export const actionLibraryFeature: FeatureModule = {
  id: 'action-library',
  commands: [...libraryCommands, ...draftCommands],
  panes: [
    {
      id: LIBRARY_PANE,
      title: 'Actions',
      routes: ['/manage_sims/actions', '/manage_sims/action/:vid'],
      identity: [],
      description: 'The Action library',
      component: LibraryPane,
    },
    {
      id: PREVIEW_PANE,
      title: 'Action Details {id}',
      routes: ['/manage_sims/actions/:id/preview'],
      description: 'Preview of one Action',
      listed: false,
      component: PreviewPane,
    },
    {
      id: QUEUE_PANE,
      title: 'Queue',
      routes: ['/manage_sims/actions/queue'],
      description: 'Simulations queued from the library',
      component: QueuePane,
    },
  ],
  globals: [PreviewModalHost],
};
