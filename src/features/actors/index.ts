import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** Actors: the registered actors, bulk registration tokens, their pending actors, installers. */
export const actorsFeature: FeatureModule = {
  id: 'actors',
  panes: [{ id: 'actors', component: lazyPane(() => import('./actors-pane'), 'ActorsPane') }],
};
