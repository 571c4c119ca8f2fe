import type { FeatureModule } from '@/panes/feature-module';
import { SavedFilterCommands } from './saved-filter-commands';

/** Filters: commands on the focused pane's filter panel, and saved filters in the palette (issue 8). */
export const filtersFeature: FeatureModule = {
  id: 'filters',
  globals: [SavedFilterCommands],
};
