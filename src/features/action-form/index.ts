import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';

const form = () => import('./action-form-pane');
const help = () => import('./help-panes');

/** Action authoring: the Add/Edit/Clone Action form, its commands and the file library modal (actions.md sections 2-8). */
export const actionFormFeature: FeatureModule = {
  id: 'action-form',
  panes: [
    { id: 'action-new', component: lazyPane(form, 'NewActionPane') },
    { id: 'action-edit', component: lazyPane(form, 'EditActionPane') },
    { id: 'action-clone', component: lazyPane(form, 'CloneActionPane') },
    { id: 'host-cli-help', component: lazyPane(help, 'HostCliHelp') },
    { id: 'host-cli-python-help', component: lazyPane(help, 'HostCliPythonHelp') },
    { id: 'cloud-python-help', component: lazyPane(help, 'CloudPythonHelp') },
  ],
  globals: [lazyGlobal(() => import('./action-picker'), 'ActionPicker')],
};
