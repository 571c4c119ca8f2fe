import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** Actor edit (/topology/nodes/{id}/edit): name, zone, tags, type, enable or retire. Commands: src/app/feature-commands.ts. */
export const actorEditFeature: FeatureModule = {
  id: 'actor-edit',
  panes: [{ id: 'node-edit', component: lazyPane(() => import('./actor-edit-pane'), 'ActorEditPane') }],
};
