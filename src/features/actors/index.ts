import type { FeatureModule } from '@/panes/feature-module';
import { actorsCommands } from './commands';
import { ActorsPane } from './actors-pane';

/** Actors: the registered actors, bulk registration tokens, their pending actors, installers. */
export const actorsFeature: FeatureModule = {
  id: 'actors',
  commands: actorsCommands,
  panes: [{ id: 'actors', title: 'Actors', routes: ['/actors'], description: 'Actors, bulk tokens and installers', component: ActorsPane }],
};
