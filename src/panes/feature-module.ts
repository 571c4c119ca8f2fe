import type { ComponentType } from 'react';
import type { AnyCommand } from '@/commands/types';
import type { PanePrefetch, PaneProps } from './types';

/** A feature builds a pane of the table in `spec-routes.ts`: it names its id and gives the component, nothing else. */
export interface PaneComponent {
  id: string;
  component: ComponentType<PaneProps>;
  /** The pane's first calls, started beside its code's download (deep link, open, hover of its command). */
  prefetch?: PanePrefetch;
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
