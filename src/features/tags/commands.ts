import * as yup from 'yup';
import { TAGGABLE_LABELS, checkTagValue, type TagChangeReply } from '@/api/contracts/tags';
import { defineCommand } from '@/commands/registry';
import { TAGS_CHANGED_EVENT, TAGS_UPDATED_EVENT, tagTargets, type TagRunResult, type TagsEventDetail } from '@/commands/tag-targets';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { noticeFlash } from '@/ui/toasts';
import { changeTag } from './api';

type Args = { tag: string };

const targetsOf = (ctx: CommandContext) => ctx.pane(tagTargets)?.items() ?? [];
const offered = (ctx: CommandContext) => ctx.permissions.has('tags.edit') && ctx.pane(tagTargets) !== undefined;

/** Tells every open pane (MON-141) and refreshes the cached lists that show tags. */
async function announce(ctx: CommandContext, detail: TagsEventDetail) {
  if (typeof document !== 'undefined') {
    for (const name of [TAGS_UPDATED_EVENT, TAGS_CHANGED_EVENT]) document.dispatchEvent(new CustomEvent<TagsEventDetail>(name, { detail }));
  }
  await ctx.queryClient?.invalidateQueries();
}

function tagCommand(op: 'add' | 'remove'): AnyCommand {
  const verb = op === 'add' ? 'added to' : 'removed from';
  return defineCommand<Args, TagRunResult>({
    id: `tags.${op}`,
    title: op === 'add' ? 'Add Tag…' : 'Remove Tag…',
    category: 'Tags',
    keywords: ['tag', 'label', 'group', op === 'add' ? 'add' : 'remove', 'untag'],
    when: offered,
    enabled: (ctx) => targetsOf(ctx).length > 0,
    blockedReason: (ctx) => (targetsOf(ctx).length ? null : 'Select what to tag first'),
    args: yup.object({ tag: yup.string().trim().required('The value must not be empty.').label('Tag') }) as yup.Schema<Args>,
    run: async ({ tag }, ctx) => {
      const checked = checkTagValue(tag);
      if (!checked.ok) throw new Error(checked.message);
      const targets = ctx.pane(tagTargets);
      const items = targetsOf(ctx);
      if (!targets || !items.length) throw new Error('Select what to tag first.');
      const failed: string[] = [];
      const replies: Record<number, TagChangeReply> = {};
      // One call per item, a few at a time: twenty Actions tag in a handful of round trips.
      for (let i = 0; i < items.length; i += 5) {
        const batch = items.slice(i, i + 5);
        const results = await Promise.allSettled(batch.map((it) => changeTag(op, targets.taggable, it.id, checked.value)));
        results.forEach((r, j) => {
          const item = batch[j]!;
          if (r.status === 'fulfilled') replies[item.id] = r.value;
          else failed.push(`${item.name}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`);
        });
      }
      const done = items.length - failed.length;
      const label = TAGGABLE_LABELS[targets.taggable];
      await announce(ctx, { taggable: targets.taggable, ids: items.map((it) => it.id) });
      if (done) noticeFlash(`Tag "${checked.value}" ${verb} ${done === 1 && items[0] ? items[0].name : `${done} ${label}s`}.`);
      if (failed.length) throw new Error(`The tag could not be ${op === 'add' ? 'added to' : 'removed from'} ${failed.length} of ${items.length}: ${failed.join('; ')}`);
      return { done, failed, replies };
    },
  });
}

export const tagsCommands: AnyCommand[] = [tagCommand('add'), tagCommand('remove')];
