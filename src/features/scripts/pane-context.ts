import { definePaneContext } from '@/commands/pane-contexts';
import type { SavedScript } from '@/api/contracts/scripts';
import type { RunResult } from '@/commands/script/run';

/** What the focused Scripts pane offers its commands (Run, Dry Run, Save, Delete, Stop): `ctx.pane(scriptsPane)`. */
export interface ScriptsPaneApi {
  /** The editor's script as typed, and the saved script it edits (null: a new one). */
  draft(): { name: string; body: string; shared: boolean };
  loadedId(): number | null;
  /** Whether the user may delete the loaded script (its owner or an admin). */
  mayDelete(): boolean;
  running(): boolean;
  execute(dryRun: boolean): Promise<RunResult | undefined>;
  stop(): void;
  /** Shows the saved script in the pane (its URL names it). */
  showSaved(script: SavedScript): void;
  /** The loaded script was deleted: the pane starts a new one. */
  showDeleted(): void;
}

export const scriptsPane = definePaneContext<ScriptsPaneApi>('scripts.pane');
