import { definePaneContext } from '@/commands/pane-contexts';
import type { NodeDetail, NodeUpdate } from '@/api/contracts/node-edit';

/** What the focused actor edit pane offers its commands (Save, Retire, Enable): `ctx.pane(actorEditPane)`. */
export interface ActorEditPaneApi {
  /** The actor as loaded (null while loading). */
  actor(): NodeDetail | null;
  /** The fields the user changed, or null when nothing changed. */
  changes(): NodeUpdate | null;
  /** The director answered: the form shows the saved actor. */
  saved(actor: NodeDetail): void;
  /** The director refused: the form keeps what was typed and shows the message. */
  failed(message: string): void;
}

export const actorEditPane = definePaneContext<ActorEditPaneApi>('actor-edit.pane');
export const ACTOR_EDIT_PANE = 'node-edit';
