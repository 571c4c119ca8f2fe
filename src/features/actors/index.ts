import type { FeatureModule } from '@/panes/feature-module';
import { ActorsPane } from './actors-pane';

/** Actors: the registered actors, bulk registration tokens, their pending actors, installers. */
export const actorsFeature: FeatureModule = {
  id: 'actors',
  panes: [{ id: 'actors', component: ActorsPane }],
};
