import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { noticeFlash } from '@/ui/toasts';
import type { NodeUpdate } from '@/api/contracts/node-edit';
import { nodeQueryKey, updateNode } from './api';
import { ACTOR_EDIT_PANE, actorEditPane, type ActorEditPaneApi } from './pane-context';

const canManage = (ctx: CommandContext) => ctx.permissions.has('actors.manage');
const focused = (ctx: CommandContext) => ctx.activePane?.kind === ACTOR_EDIT_PANE && ctx.pane(actorEditPane) !== undefined;

function paneOf(ctx: CommandContext): { pane: ActorEditPaneApi; id: number } {
  const pane = ctx.pane(actorEditPane);
  const id = pane?.actor()?.id;
  if (!pane || !id) throw new Error('Open an actor on its edit page first (the network map or a job step links to it).');
  return { pane, id };
}

async function apply(ctx: CommandContext, input: NodeUpdate, done: (name: string) => string) {
  const { pane, id } = paneOf(ctx);
  try {
    const actor = await updateNode(id, input);
    pane.saved(actor);
    noticeFlash(done(actor.name));
    await ctx.queryClient?.invalidateQueries({ queryKey: nodeQueryKey(id) });
    await ctx.queryClient?.invalidateQueries({ queryKey: ['topology'] });
    return actor;
  } catch (e) {
    pane.failed(e instanceof Error ? e.message : String(e));
    throw e;
  }
}

export const actorEditCommands: AnyCommand[] = [
  defineCommand({
    id: 'actorEdit.save',
    title: 'Save Actor',
    buttonLabel: 'Save',
    category: 'Actors',
    keywords: ['actor', 'node', 'rename', 'zone', 'tags', 'type'],
    hotkey: 'mod+s',
    hotkeyContext: ACTOR_EDIT_PANE,
    when: (ctx) => canManage(ctx) && focused(ctx),
    enabled: (ctx) => ctx.pane(actorEditPane)?.changes() != null,
    blockedReason: (ctx) => (ctx.pane(actorEditPane)?.changes() == null ? 'Nothing changed' : null),
    run: async (_args, ctx) => {
      const changes = paneOf(ctx).pane.changes();
      if (!changes) throw new Error('Nothing changed.');
      return apply(ctx, changes, (name) => `Actor ${name} was saved.`);
    },
  }),
  defineCommand({
    id: 'actorEdit.retire',
    title: 'Retire Actor',
    buttonLabel: 'Retire',
    category: 'Actors',
    keywords: ['actor', 'node', 'disable', 'revoke', 'decommission'],
    when: (ctx) => canManage(ctx) && focused(ctx) && !ctx.pane(actorEditPane)?.actor()?.retired_at,
    run: async (_args, ctx) => {
      const name = paneOf(ctx).pane.actor()?.name ?? 'this actor';
      if (!(await ctx.confirm(`Retire ${name}? Its credential stops working and no job can use it until it is enabled again.`, { confirmLabel: 'Retire Actor', cancelLabel: 'Keep Actor' }))) return null;
      return apply(ctx, { retired: true }, (n) => `Actor ${n} is retired.`);
    },
  }),
  defineCommand({
    id: 'actorEdit.enable',
    title: 'Enable Actor',
    buttonLabel: 'Enable',
    category: 'Actors',
    keywords: ['actor', 'node', 'unretire', 'restore'],
    when: (ctx) => canManage(ctx) && focused(ctx) && !!ctx.pane(actorEditPane)?.actor()?.retired_at,
    run: (_args, ctx) => apply(ctx, { retired: false }, (n) => `Actor ${n} is enabled.`),
  }),
];
