import type { FeatureModule } from '@/panes/feature-module';
import { CloneActionPane, EditActionPane, NewActionPane } from './action-form-pane';
import { ActionPicker } from './action-picker';
import { HELP_PANES } from './help-panes';

/** Action authoring: the Add/Edit/Clone Action form, its commands and the file library modal (actions.md sections 2-8). */
export const actionFormFeature: FeatureModule = {
  id: 'action-form',
  panes: [
    { id: 'action-new', component: NewActionPane },
    { id: 'action-edit', component: EditActionPane },
    { id: 'action-clone', component: CloneActionPane },
    ...HELP_PANES,
  ],
  globals: [ActionPicker],
};
