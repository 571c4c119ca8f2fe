import { definePaneContext } from './pane-contexts';
import type { TagChangeReply, Taggable } from '@/api/contracts/tags';

/**
 * What the focused pane offers the tag commands (tags.add, tags.remove): the kind and the selected
 * items (one, or a multi-selection). Any pane that shows taggable items provides it with
 * `usePaneContext(tagTargets, ...)`; the commands tag every item at once.
 */
export interface TagTargets {
  taggable: Taggable;
  items(): { id: number; name: string }[];
}

export const tagTargets = definePaneContext<TagTargets>('tags.targets');

/** MON-141: the document events that tell every open pane tags changed (detail: { taggable, ids }). */
export const TAGS_UPDATED_EVENT = 'tags updated';
export const TAGS_CHANGED_EVENT = 'tags changed';
export interface TagsEventDetail {
  taggable: Taggable;
  ids: number[];
}

/** What tags.add / tags.remove did: the replies by item id (the editor shows the director's list), and the refusals. */
export interface TagRunResult {
  done: number;
  failed: string[];
  replies: Record<number, TagChangeReply>;
}
