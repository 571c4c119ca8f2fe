import type { FeatureModule } from '@/panes/feature-module';

/** Tags on Actions, actors and simulations: tags.add and tags.remove act on the focused pane's selection (src/commands/tag-targets.ts). */
export const tagsFeature: FeatureModule = { id: 'tags', panes: [] };
