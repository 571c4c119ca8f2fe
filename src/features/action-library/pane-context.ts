import { definePaneContext } from '@/commands/pane-contexts';

/** What the mounted Action library offers its commands (Next, Previous, Search): `ctx.pane(libraryPane)`. */
export interface LibraryPaneApi {
  move(step: 1 | -1): void;
  focusSearch(): void;
}

export const libraryPane = definePaneContext<LibraryPaneApi>('actions.library');
