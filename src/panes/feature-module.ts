import type { ComponentType } from 'react';
import type { AnyCommand } from '@/commands/types';
import type { PaneKind } from './types';

/** What a feature offers the workbench: its commands, its panes, and components mounted once. */
export interface FeatureModule {
  id: string;
  commands?: AnyCommand[];
  panes?: PaneKind[];
  /** Mounted once while signed in (pollers, banners, modals). */
  globals?: ComponentType[];
}
