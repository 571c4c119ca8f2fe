import * as yup from 'yup';
import { bulkTokenCreateSchema, type ActorTables, type BulkTokenInput, type BulkTokenRow, type CreatedBulkToken } from '@/api/contracts/actors';
import { inMenu, type MenuPlacement } from '@/commands/menus';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { downloadText } from '@/ui/download';
import { noticeFlash } from '@/ui/toasts';
import { actorsQueryKey, clearPendingActor, clearToken, createToken, getPending, getTables, getTokenCsv, tablesQueryKey } from './api';
import { tokenIdOf } from './menus';
import { actorsStore, startPolling } from './store';

/** MON-135, MON-154: both clears ask this first. */
export const CLEAR_CONFIRM = 'Are you sure?';

const canManage = (ctx: CommandContext) => ctx.permissions.has('actors.manage');
const signedIn = (ctx: CommandContext) => ctx.user !== null;
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: actorsQueryKey });
const matches = (q: string, ...texts: (string | null)[]) => !q || texts.join(' ').toLowerCase().includes(q);

/** The bulk tokens to pick from, by name and status; the token selected in the Actors pane chosen at first. */
const tokenPicks: PickSource = {
  noun: 'bulk token',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getTables()).bulk.data
      .filter((t) => matches(q, t.name, t.status, String(t.id)))
      .slice(0, 20)
      .map((t) => ({ value: t.id, label: t.name, detail: `${t.status}, ${t.active_pending} pending` }));
  },
  current: (ctx) => {
    const id = actorsStore.selectedId;
    if (id === null) return null;
    const row = ctx.queryClient?.getQueryData<ActorTables>(tablesQueryKey)?.bulk.data.find((t) => t.id === id);
    return { value: id, label: row?.name ?? `Bulk token ${id}` };
  },
};

/** The pending actors to pick from (registered with a bulk token, not called in yet), by name and token. */
const pendingActorPicks: PickSource = {
  noun: 'pending actor',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    const tokens = (await getTables()).bulk.data.filter((t) => t.active_pending > 0);
    const pending = await Promise.all(tokens.map(async (t) => (await getPending(t.id)).map((n) => ({ n, token: t.name }))));
    return pending
      .flat()
      .filter(({ n, token }) => matches(q, n.name, token, n.status))
      .slice(0, 20)
      .map(({ n, token }) => ({ value: n.id, label: n.name, detail: `${n.status}, token ${token}` }));
  },
};

const idArgs = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().label('Bulk token').optional().meta(pickFrom(tokenPicks)) });
type IdArgs = { id?: number | undefined };

/** The token a command acts on: the given id, else the one selected in the Actors pane. */
function tokenId(args: IdArgs | undefined): number {
  const id = args?.id ?? actorsStore.selectedId;
  if (!id) throw new Error('Select a bulk token in the Actors pane first, or give its id.');
  return id;
}

const openPane = (ctx: CommandContext) => ctx.dock?.openUrl('/actors');

/** Asks 'Are you sure?', clears, says what was cleared; the tables refresh whatever the answer. */
async function clearAfterConfirm(ctx: CommandContext, what: 'Token' | 'Pending Actor', clear: () => Promise<{ id: number; message: string }>): Promise<{ id: number; message: string } | null> {
  if (!(await ctx.confirm(CLEAR_CONFIRM, { confirmLabel: `Clear ${what}`, cancelLabel: `Keep ${what}` }))) return null;
  try {
    const done = await clear();
    noticeFlash(done.message);
    return done;
  } finally {
    await refresh(ctx);
  }
}

/** Opens the Actors pane and one of its modals for a token. */
function modalCommand(id: `actors.${string}`, title: string, keywords: string[], modal: 'installerFor' | 'registerPushFor', menus: MenuPlacement[] = []) {
  return defineCommand<IdArgs, null>({
    id,
    title,
    category: 'Actors',
    keywords,
    menus,
    needsWorkbench: true,
    when: signedIn,
    args: idArgs as yup.Schema<IdArgs>,
    run: (args, ctx) => {
      const token = tokenId(args);
      openPane(ctx);
      actorsStore.selectedId = token;
      actorsStore[modal] = token;
      return null;
    },
  });
}

/** A bulk token row's ⋯ menu (MON-016): pending actors, Register Push, Download, then Clear apart. */
const rowItem = (order: number, opts: Omit<MenuPlacement<BulkTokenRow>, 'menu'> = {}) =>
  inMenu<BulkTokenRow>('row/bulk-token', { group: order < 3 ? '1_token' : '2_clear', order, args: tokenIdOf, ...opts });

/** MON-071: one row expanded at a time, and only a row with pending actors. */
export function toggleExpanded(row: Pick<BulkTokenRow, 'id' | 'active_pending'>): void {
  if (actorsStore.expandedId === row.id) actorsStore.expandedId = null;
  else if (row.active_pending > 0) actorsStore.expandedId = row.id;
}

type CreateArgs = Partial<BulkTokenInput> & { form?: boolean | undefined };

export const actorsCommands: AnyCommand[] = [
  defineCommand<CreateArgs, CreatedBulkToken | null>({
    id: 'actors.createToken',
    title: 'Create bulk token…',
    category: 'Actors',
    keywords: ['bulk', 'token', 'registration', 'actor', 'new'],
    when: canManage,
    args: yup.object({
      name: yup.string().trim().max(100).label('Name (optional: the form asks)').optional(),
      hours: yup.number().typeError('Hours must be a number').integer().min(1).max(720).label('Hours valid (optional)').optional(),
      form: yup.boolean().optional(),
    }) as yup.Schema<CreateArgs>,
    run: async (args, ctx) => {
      // Without values (the palette), the pane's form asks; scripts and the form's submit create at once.
      if (args?.form !== false && args?.name === undefined && args?.hours === undefined && typeof document !== 'undefined' && ctx.dock) {
        openPane(ctx);
        actorsStore.createOpen = true;
        return null;
      }
      const input = bulkTokenCreateSchema.validateSync({ name: args?.name ?? '', hours: args?.hours ?? 24 });
      const created = await createToken(input);
      actorsStore.selectedId = created.id;
      await refresh(ctx);
      return created;
    },
  }),
  defineCommand<IdArgs, { filename: string; csv: string }>({
    id: 'actors.downloadTokenCsv',
    title: 'Download token CSV',
    category: 'Actors',
    menus: [rowItem(2, { title: 'Download' })],
    keywords: ['bulk', 'token', 'csv', 'export', 'download'],
    when: signedIn,
    args: idArgs as yup.Schema<IdArgs>,
    run: async (args) => {
      const id = tokenId(args);
      const csv = await getTokenCsv(id);
      const filename = `bulk-token-${id}.csv`;
      downloadText(filename, csv, 'text/csv;charset=utf-8');
      return { filename, csv };
    },
  }),
  defineCommand<IdArgs, { id: number; message: string } | null>({
    id: 'actors.clearToken',
    title: 'Clear token',
    category: 'Actors',
    menus: [rowItem(3, { title: 'Clear' })],
    keywords: ['bulk', 'token', 'delete', 'revoke', 'remove'],
    when: canManage,
    args: idArgs as yup.Schema<IdArgs>,
    run: async (args, ctx) => {
      const id = tokenId(args);
      return clearAfterConfirm(ctx, 'Token', async () => {
        const done = await clearToken(id);
        if (actorsStore.selectedId === id) actorsStore.selectedId = null;
        if (actorsStore.expandedId === id) actorsStore.expandedId = null;
        return done;
      });
    },
  }),
  defineCommand<{ id: number }, { id: number; message: string } | null>({
    id: 'actors.clearPending',
    title: 'Clear pending actor',
    category: 'Actors',
    keywords: ['pending', 'actor', 'node', 'destroy', 'remove'],
    when: canManage,
    args: yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required('id is required').label('Pending actor').meta(pickFrom(pendingActorPicks)) }),
    run: ({ id }, ctx) => clearAfterConfirm(ctx, 'Pending Actor', () => clearPendingActor(id)),
  }),
  modalCommand('actors.showInstaller', 'Show installer', ['download', 'actor', 'installer', 'linux', 'macos', 'windows', 'script'], 'installerFor'),
  modalCommand('actors.registerPush', 'Register Push', ['bulk', 'token', 'register', 'push', 'command line', 'actor'], 'registerPushFor', [
    rowItem(1, { blockedReason: (_ctx, row) => (row.actions.includes('register_push') ? null : 'The token has expired') }),
  ]),
  defineCommand<Record<string, never>, { resumed: boolean }>({
    id: 'actors.resumeRefresh',
    title: 'Resume Auto-Refresh of Actors',
    category: 'Actors',
    keywords: ['refresh', 'poll', 'resume', 'bulk', 'pending', 'auto'],
    when: signedIn,
    // MON-185: offered once the Actors pane stopped refreshing at its re-poll time limit.
    enabled: () => actorsStore.pollingStopped,
    blockedReason: () => (actorsStore.pollingStopped ? null : 'The Actors pane is refreshing'),
    run: async (_args, ctx) => {
      startPolling();
      await refresh(ctx);
      return { resumed: true };
    },
  }),
  defineCommand<{ id: number; active_pending?: number | undefined }, { expandedId: number | null }>({
    id: 'actors.togglePending',
    title: 'Show or Hide Pending Actors of Token',
    category: 'Actors',
    keywords: ['bulk', 'token', 'pending', 'expand', 'collapse'],
    menus: [
      rowItem(0, {
        title: (row) => (actorsStore.expandedId === row.id ? 'Hide Pending' : 'Show Pending'),
        args: (row) => ({ id: row.id, active_pending: row.active_pending }),
        blockedReason: (_ctx, row) => (actorsStore.expandedId !== row.id && row.active_pending === 0 ? 'No pending actors' : null),
      }),
    ],
    when: signedIn,
    args: yup.object({
      id: yup.number().typeError('id must be a number').integer().positive().required('id is required').label('Bulk token').meta(pickFrom(tokenPicks)),
      active_pending: yup.number().integer().min(0).optional(),
    }),
    run: ({ id, active_pending }) => {
      // A token whose pending count is not given (the palette) expands; its list then says what is pending.
      toggleExpanded({ id, active_pending: active_pending ?? 1 });
      return { expandedId: actorsStore.expandedId };
    },
  }),
];
