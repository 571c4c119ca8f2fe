import type { FeatureModule } from '@/panes/feature-module';
import { CloneActionPane, EditActionPane, NewActionPane } from './action-form-pane';
import { ActionPicker } from './action-picker';
import { actionFormCommands } from './commands';
import { HELP_PANES } from './help-panes';

/** Action authoring: the Add/Edit/Clone Action form, its commands and the file library modal (actions.md sections 2-8). */
export const actionFormFeature: FeatureModule = {
  id: 'action-form',
  commands: actionFormCommands,
  panes: [
    {
      id: 'action-new',
      title: 'Add Action',
      routes: ['/manage_sims/actions/unified_action/new'],
      query: ['action_type', 'domain', 'dns_name', 'dns_desc'],
      identity: [],
      permission: 'create_action_permission',
      description: 'Create an Action',
      component: NewActionPane,
    },
    { id: 'action-edit', title: 'Edit Action {id}', routes: ['/manage_sims/actions/:id/edit', '/manage_sims/actions/cloud_action/:id/edit'], listed: false, component: EditActionPane },
    { id: 'action-clone', title: 'Clone Action {id}', routes: ['/manage_sims/actions/:id/clone'], permission: 'create_action_permission', listed: false, component: CloneActionPane },
    ...HELP_PANES,
  ],
  globals: [ActionPicker],
};
