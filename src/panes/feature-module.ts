import type { ComponentType } from 'react';
import type { AnyCommand } from '@/commands/types';
import type { PaneKind, PaneProps } from './types';

/** A feature builds a pane of the table in `spec-routes.ts`: it names its id and gives the component (and, if it likes, the calls to start ahead). */
export interface PaneComponent {
  id: string;
  component: ComponentType<PaneProps>;
  /**
   * Starts the calls the pane will make for `params` (into the query cache, with the keys the pane reads)
   * when it opens, beside the download of its code instead of after it.
   */
  prefetch?: PaneKind['prefetch'];
}

/** What a feature offers the workbench: its commands, its panes, and components mounted once. */
export interface FeatureModule {
  id: string;
  /** Filled from FEATURE_COMMANDS (src/app/feature-commands.ts), the one table of React-free command modules. */
  commands?: AnyCommand[];
  /** Panes it builds; their routes, titles and params come from SPEC_PANES. */
  panes?: PaneComponent[];
  /** Mounted once while signed in (pollers, banners, modals). */
  globals?: ComponentType[];
}
