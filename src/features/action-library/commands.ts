/**
 * Action library commands: open and search the library, next/previous, preview, approve (anywhere,
 * protected, cloud), reject, file decisions, edit, clone, copy VID, runs and the CSV export, acting on
 * the `id` argument or the focused library or preview pane.
 *
 * Size: one list of command declarations (one declaration per command, the house rule) sharing the
 * private target resolution, permission predicates and approve helpers.
 */
import * as yup from 'yup';
import { APPROVE_LABELS, EDITABLE_PARAMS, LIBRARY_MESSAGES, type ActionLibraryDetail, type EditableParam } from '@/api/contracts/library';
import { inMenu } from '@/commands/menus';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { ApiError } from '@/api/http';
import { flash } from '@/ui/toasts';
import { deferWithUndo } from '@/ui/undo';
import { approveAction, decideFile, fetchAllLibraryPages, fetchDetail, fetchPreview, libraryKeys, rejectAction, updateFromLibrary, type FileDecision } from './api';
import { csvField } from './csv';
import { paneContexts } from '@/commands/pane-contexts';
import { actionPicks } from '@/commands/entity-picks';
import { chosenValue, pickFrom, scriptOnly, type PickSource } from '@/commands/pick';
import { libraryPane, type LibraryPaneApi } from './pane-context';
import { clearSelection, libraryStore } from './store';
import { type ActionType } from '@/api/contracts/vocabulary';
import type { ActionDetailMenuArgs } from './menus';

export const LIBRARY_PANE = 'actions';

function library(ctx: CommandContext): LibraryPaneApi {
  const p = ctx.pane(libraryPane);
  if (!p) throw new Error('Open the Action library first.');
  return p;
}
export const PREVIEW_PANE = 'action-preview';
/** The library's keys apply where a library pane is focused (or rendered alone): hidden on the Start pane. */
const inLibrary = (ctx: CommandContext) => ctx.pane(libraryPane) !== undefined;
/** Keys acting on one Action work in the library and in a preview pane. */
const ACTION_PANES = [LIBRARY_PANE, PREVIEW_PANE];

interface Target {
  id: number;
  vid?: string;
  action_type?: ActionType;
  vendor?: boolean;
}

/** The detail panel's toolbar (toolbar/action-detail): a button per command, acting on the panel's Action. */
const detailButton = (order: number, title: string, when?: (a: ActionDetailMenuArgs) => boolean) =>
  inMenu<ActionDetailMenuArgs>('toolbar/action-detail', {
    order,
    title,
    args: (a) => ({ id: a.id }),
    ...(order === 0 ? { style: 'primary' as const } : {}),
    ...(when ? { when: (_ctx: CommandContext, a: ActionDetailMenuArgs) => when(a) } : {}),
  });

/** The Action a command acts on: the palette asks with a pick list (the Action in view chosen at first); a script gives its id. */
const actionId = () => yup.number().integer().positive().label('Action').meta(pickFrom(actionPicks));
const pickedIdArgs = yup.object({ id: actionId().optional() });
type IdArgs = { id?: number | undefined };

/** The Action a command acts on: its id argument, else the open preview, else the library's selected row. */
/**
 * Whether a command on one Action applies where it is run: it names the Action, or runs in a terminal,
 * or an Action is shown or selected (preview, preview pane, the library's current row).
 * The palette hides it elsewhere (the Start pane has no Action to approve).
 */
const hasTarget = (ctx: CommandContext, args?: IdArgs): boolean =>
  args?.id !== undefined ||
  !ctx.dock ||
  libraryStore.previewId !== null ||
  ctx.activePane?.kind === PREVIEW_PANE ||
  (ctx.activePane?.kind === LIBRARY_PANE && libraryStore.current !== null);

export function resolveTarget(args: IdArgs | undefined, ctx: CommandContext): Target {
  if (args?.id) {
    const current = libraryStore.current;
    return current?.id === args.id ? { ...current } : { id: args.id };
  }
  if (libraryStore.previewId !== null) {
    const current = libraryStore.current;
    return current?.id === libraryStore.previewId ? { ...current } : { id: libraryStore.previewId };
  }
  if (ctx.activePane?.kind === PREVIEW_PANE && ctx.activePane.params.id) return { id: Number(ctx.activePane.params.id) };
  if (libraryStore.current) return { ...libraryStore.current };
  throw new Error('Select an Action in the library first.');
}

/** Fills in what a command needs to know about the Action (its type, VID) when only the id is known. */
async function withInfo(t: Target): Promise<Required<Target>> {
  if (t.vid !== undefined && t.action_type !== undefined && t.vendor !== undefined) return t as Required<Target>;
  const p = await fetchPreview(t.id);
  return { id: p.id, vid: p.vid, action_type: p.action_type, vendor: p.vendor };
}

/** Whether a library query is one of this Action's own (preview, detail, latest runs). */
const isAbout = (key: readonly unknown[], a: { id: number; vid: string }) =>
  (key[1] === 'preview' || key[1] === 'latest') ? key[2] === a.id : key[1] === 'detail' && key[2] === a.vid.toUpperCase();

const refresh = async (ctx: CommandContext) => {
  await ctx.queryClient?.invalidateQueries({ queryKey: libraryKeys.all });
};

const dock = (ctx: CommandContext) => {
  if (!ctx.dock) throw new Error('This command needs the workbench.');
  return ctx.dock;
};

const has = (ctx: CommandContext, ...p: Parameters<CommandContext['permissions']['has']>[0][]) => p.every((x) => ctx.permissions.has(x));
const canApproveEndpoint = (ctx: CommandContext) => has(ctx, 'approve', 'endpointApproval');
const canApproveCloud = (ctx: CommandContext) => has(ctx, 'approve', 'cloudApproval');
const canDecide = (ctx: CommandContext) => canApproveEndpoint(ctx) || canApproveCloud(ctx);

type ApproveMode = 'anywhere' | 'protected' | 'cloud';
const APPROVE_MODES: readonly ApproveMode[] = ['anywhere', 'protected', 'cloud'];
const approveTitle = (mode: ApproveMode) => (mode === 'cloud' ? 'Approve Cloud Action' : APPROVE_LABELS[mode]);
const mayApprove = (mode: ApproveMode, ctx: CommandContext) => (mode === 'cloud' ? canApproveCloud(ctx) : canApproveEndpoint(ctx));

/** Approves one Action in a mode: the one code path of every approve command. */
/** An approve mode fits the Action's type: cloud Actions are approved as cloud ones, the others not. */
function checkMode(mode: ApproveMode, t: Required<Target>): void {
  if (mode === 'cloud' && t.action_type !== 'cloud') throw new Error(`${t.vid} is not a cloud Action: use ${APPROVE_LABELS.anywhere} or ${APPROVE_LABELS.protected}.`);
  if (mode !== 'cloud' && t.action_type === 'cloud') throw new Error(`${t.vid} is a cloud Action: use Approve.`);
}

async function approve(mode: ApproveMode, target: Target, version: number | undefined, ctx: CommandContext) {
  const t = await withInfo(target);
  checkMode(mode, t);
  try {
    // The version the user reviewed; a script that names none approves the version the director has now.
    const reviewed = version ?? libraryStore.seenVersions[t.id] ?? (await fetchPreview(t.id)).version;
    await approveAction(t.id, mode === 'protected', reviewed);
  } catch (e) {
    // A newer version or a new state: show it, so the approver reviews what is there now.
    if (e instanceof ApiError && e.status === 409) await refresh(ctx);
    throw e;
  }
  flash('notice', `${t.vid} was approved${mode === 'protected' ? ' and requires a Protected Theater' : mode === 'anywhere' ? ' to run anywhere' : ''}.`);
  await refresh(ctx);
  return { id: t.id, approved: true };
}

const versionArg = yup.number().integer().positive().optional();

function approveCommand(variant: ApproveMode, hotkey: string): AnyCommand {
  return defineCommand<IdArgs & { version?: number | undefined }>({
    id: `actions.approve${variant === 'anywhere' ? 'Anywhere' : variant === 'protected' ? 'Protected' : 'Cloud'}`,
    title: approveTitle(variant),
    category: 'Actions',
    keywords: ['approval', 'approve', variant === 'protected' ? 'protected theater' : variant === 'cloud' ? 'cloud' : 'anywhere'],
    hotkey,
    hotkeyContext: ACTION_PANES,
    when: (ctx, a) => mayApprove(variant, ctx) && hasTarget(ctx, a),
    args: pickedIdArgs.shape({ version: versionArg }),
    run: async (args, ctx) => {
      const target = resolveTarget(args, ctx);
      // A single key press must not approve by accident: the hotkey holds the approval back for 10 s
      // with an Undo (nothing reaches the director before), naming the Action and the mode.
      if (ctx.source === 'hotkey') {
        const t = await withInfo(target);
        checkMode(variant, t);
        // The version on screen now is the one approved, even if the director's changes meanwhile.
        const reviewed = args?.version ?? libraryStore.seenVersions[t.id] ?? (await fetchPreview(t.id)).version;
        const ran = await deferWithUndo(approveNotice(variant, t.vid), () => approve(variant, t, reviewed, ctx), { undone: `Approving ${t.vid} was undone: it stays pending.` });
        return { id: t.id, approved: ran };
      }
      return approve(variant, target, args?.version, ctx);
    },
  });
}

/** What the approve hotkeys say while the approval waits for its Undo. */
export function approveNotice(mode: ApproveMode, vid: string): string {
  const how = mode === 'protected' ? 'to run only in a Protected Theater' : mode === 'anywhere' ? 'to run anywhere' : 'to run in the cloud';
  return `${vid} will be approved ${how}.`;
}

type ApproveArgs = IdArgs & { vid?: string | undefined; mode: ApproveMode; version?: number | undefined };

/** `actions.approve vid=A104-223 mode=anywhere`: the approve commands in one, for scripts. */
const approveByMode = defineCommand<ApproveArgs>({
  id: 'actions.approve',
  title: 'Approve Action…',
  category: 'Actions',
  keywords: ['approval', 'approve', 'vid', 'mode', 'anywhere', 'protected theater', 'cloud'],
  when: (ctx, a) => canDecide(ctx) && (!!a?.vid || hasTarget(ctx, a)),
  args: pickedIdArgs.shape({
    // Another way for a script to name the Action the pick list chooses in the palette.
    vid: yup.string().trim().max(100).label('VID (e.g. A104-223)').optional().meta(scriptOnly()),
    mode: yup.string<ApproveMode>().oneOf([...APPROVE_MODES], 'mode must be anywhere, protected or cloud').required('mode is required').label('Mode'),
    version: versionArg,
  }) as yup.Schema<ApproveArgs>,
  run: async ({ vid, mode, version, ...idArg }, ctx) => {
    if (!mayApprove(mode, ctx)) throw new Error(`"${approveTitle(mode)}" is not available to you here`);
    const target: Target = vid ? await fetchDetail({ vid }) : resolveTarget(idArg, ctx);
    return approve(mode, target, version, ctx);
  },
});

/**
 * The files pending approval of the Action chosen in the form's Action pick list (else the Action in
 * view), searched by file name, SHA256 and variable.
 */
const pendingFilePicks: PickSource = {
  noun: 'pending file',
  search: async (query, _signal, chosen) => {
    const id = chosenValue(chosen, 'id') ?? libraryStore.previewId ?? libraryStore.current?.id;
    if (id === undefined) return [];
    const q = query.trim().toLowerCase();
    return (await fetchPreview(id)).files
      .filter((f) => f.file_restrictions === 'pending_approval')
      .filter((f) => !q || `${f.orig_file_name} ${f.sha256sum} ${f.variable_name ?? ''}`.toLowerCase().includes(q))
      .map((f) => ({ value: f.id, label: f.orig_file_name, detail: `SHA256 ${f.sha256sum.slice(0, 12)}…` }));
  },
};

function fileCommand(decision: FileDecision, title: string, question?: (file: string) => string, confirmLabel = ''): AnyCommand {
  return defineCommand<{ id: number; file_id: number; file_name?: string | undefined }>({
    id: `actions.file${decision === 'approve' ? 'Approve' : decision === 'restrict' ? 'Restrict' : 'Remove'}`,
    title,
    category: 'Actions',
    keywords: ['file', 'pending', 'approval'],
    when: canDecide,
    args: yup.object({
      id: actionId().required('Action id is required'),
      file_id: yup.number().integer().positive().label('Pending file').required('File id is required').meta(pickFrom(pendingFilePicks)),
      file_name: yup.string().optional(),
    }),
    run: async ({ id, file_id, file_name }, ctx) => {
      // A file picked in the palette is named by its id: its name is the Action's.
      const label = file_name ?? (await fetchPreview(id).catch(() => null))?.files.find((f) => f.id === file_id)?.orig_file_name ?? `file ${file_id}`;
      if (question && !(await ctx.confirm(question(label), { confirmLabel, cancelLabel: 'Keep File Pending' }))) return { cancelled: true };
      await decideFile(id, file_id, decision);
      flash('notice', decision === 'approve' ? `${label} was approved as safe.` : decision === 'restrict' ? `${label} was restricted as malicious.` : `${label} was removed from the Action; it stays in the File Library.`);
      await refresh(ctx);
      return { id, file_id, decision };
    },
  });
}

function downloadText(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const libraryCommands: AnyCommand[] = [
  defineCommand({
    id: 'actions.openLibrary',
    title: 'Open Action Library',
    category: 'Actions',
    keywords: ['library', 'actions', 'browse'],
    hotkey: 'alt+shift+l',
    needsWorkbench: true,
    run: (_a, ctx) => dock(ctx).openUrl(libraryStore.current ? `/manage_sims/action/${encodeURIComponent(libraryStore.current.vid)}` : '/manage_sims/actions'),
  }),
  defineCommand({
    id: 'actions.focusSearch',
    title: 'Search the Action Library',
    category: 'Actions',
    keywords: ['find', 'filter', 'search'],
    hotkey: '/',
    hotkeyContext: LIBRARY_PANE,
    needsWorkbench: true,
    run: (_a, ctx) => {
      const focused = ctx.activePane?.kind === LIBRARY_PANE ? ctx.pane(libraryPane) : undefined;
      if (!focused) {
        libraryStore.focusSearchPending = true;
        dock(ctx).openUrl(libraryStore.current ? `/manage_sims/action/${encodeURIComponent(libraryStore.current.vid)}` : '/manage_sims/actions');
      }
      // A library already mounted (now brought to the front) focuses its search at once.
      const mounted = focused ?? paneContexts.lookup(libraryPane, { kind: LIBRARY_PANE });
      if (mounted) {
        libraryStore.focusSearchPending = false;
        mounted.focusSearch();
      }
    },
  }),
  defineCommand({
    id: 'actions.next',
    title: 'Next Action',
    category: 'Actions',
    hotkey: 'j',
    hotkeyContext: LIBRARY_PANE,
    needsWorkbench: true,
    when: inLibrary,
    run: (_a, ctx) => library(ctx).move(1),
  }),
  defineCommand({
    id: 'actions.previous',
    title: 'Previous Action',
    category: 'Actions',
    hotkey: 'k',
    hotkeyContext: LIBRARY_PANE,
    needsWorkbench: true,
    when: inLibrary,
    run: (_a, ctx) => library(ctx).move(-1),
  }),
  defineCommand<IdArgs>({
    id: 'actions.preview',
    menus: [detailButton(0, 'Preview')],
    title: 'Preview Action',
    category: 'Actions',
    keywords: ['details', 'preview'],
    hotkey: 'p',
    hotkeyContext: LIBRARY_PANE,
    args: pickedIdArgs,
    run: (args, ctx) => {
      const t = resolveTarget(args, ctx);
      libraryStore.previewId = t.id;
      return { id: t.id };
    },
  }),
  defineCommand<IdArgs>({
    id: 'actions.previewPane',
    title: 'Open Action Preview in a Pane',
    category: 'Actions',
    keywords: ['details', 'preview', 'pane', 'side by side'],
    hotkey: 'alt+p',
    hotkeyContext: LIBRARY_PANE,
    needsWorkbench: true,
    args: pickedIdArgs,
    run: (args, ctx) => {
      const t = resolveTarget(args, ctx);
      libraryStore.previewId = null;
      const d = dock(ctx);
      const url = `/manage_sims/actions/${t.id}/preview`;
      if (d.openBeside) d.openBeside(url);
      else d.openUrl(url);
    },
  }),
  approveCommand('anywhere', 'shift+a'),
  approveCommand('protected', 'shift+t'),
  approveCommand('cloud', 'shift+c'),
  approveByMode,
  defineCommand<IdArgs>({
    id: 'actions.reject',
    title: 'Reject Action',
    category: 'Actions',
    keywords: ['approval', 'delete', 'decline'],
    hotkey: 'shift+r',
    hotkeyContext: ACTION_PANES,
    when: (ctx, a) => canDecide(ctx) && hasTarget(ctx, a),
    args: pickedIdArgs,
    run: async (args, ctx) => {
      const t = await withInfo(resolveTarget(args, ctx));
      if (!(await ctx.confirm(LIBRARY_MESSAGES.rejectConfirm, { confirmLabel: 'Reject Action', cancelLabel: 'Keep Action' }))) return { cancelled: true };
      const answer = await rejectAction(t.id);
      flash('notice', `${t.vid} was rejected and deleted${answer.removed_from.length ? `; it was removed from ${answer.removed_from.join(', ')}` : ''}.`);
      libraryStore.previewId = null;
      clearSelection();
      ctx.queryClient?.removeQueries({ queryKey: libraryKeys.preview(t.id) });
      ctx.queryClient?.removeQueries({ queryKey: libraryKeys.detail(t.vid) });
      ctx.queryClient?.removeQueries({ queryKey: libraryKeys.latest(t.id) });
      ctx.dock?.openUrl('/manage_sims/actions');
      // Everything but the deleted Action's own queries (its panes may still be mounted for a moment: refetching them would ask for a deleted Action).
      await ctx.queryClient?.invalidateQueries({ queryKey: libraryKeys.all, predicate: (q) => !isAbout(q.queryKey, t) });
      return { id: t.id, rejected: true };
    },
  }),
  defineCommand<IdArgs>({
    id: 'actions.edit',
    menus: [detailButton(1, 'Edit', (a) => a.userPermissions.edit && !a.vendor)],
    title: 'Edit Action',
    category: 'Actions',
    hotkey: 'e',
    hotkeyContext: ACTION_PANES,
    needsWorkbench: true,
    when: (ctx, a) => ctx.permissions.has('create_action_permission') && hasTarget(ctx, a),
    args: pickedIdArgs,
    run: async (args, ctx) => {
      const t = await withInfo(resolveTarget(args, ctx));
      if (t.vendor) throw new Error(`${t.vid} is vendor content and cannot be edited: clone it instead.`);
      libraryStore.previewId = null;
      dock(ctx).openUrl(t.action_type === 'cloud' ? `/manage_sims/actions/cloud_action/${t.id}/edit` : `/manage_sims/actions/${t.id}/edit`);
    },
  }),
  defineCommand<IdArgs>({
    id: 'actions.clone',
    menus: [detailButton(2, 'Clone', (a) => a.userPermissions.edit)],
    title: 'Clone Action',
    category: 'Actions',
    keywords: ['copy', 'duplicate'],
    hotkey: 'c',
    hotkeyContext: ACTION_PANES,
    needsWorkbench: true,
    when: (ctx, a) => ctx.permissions.has('create_action_permission') && hasTarget(ctx, a),
    args: pickedIdArgs,
    run: (args, ctx) => {
      const t = resolveTarget(args, ctx);
      libraryStore.previewId = null;
      dock(ctx).openUrl(`/manage_sims/actions/${t.id}/clone`);
    },
  }),
  defineCommand<IdArgs>({
    id: 'actions.copyVid',
    menus: [detailButton(3, 'Copy VID')],
    title: 'Copy Action VID',
    category: 'Actions',
    keywords: ['clipboard', 'vid'],
    hotkey: 'y',
    hotkeyContext: ACTION_PANES,
    args: pickedIdArgs,
    run: async (args, ctx) => {
      const many = !args?.id && libraryStore.selectedVids.length > 1 ? [...libraryStore.selectedVids] : null;
      const text = many ? many.join('\n') : (await withInfo(resolveTarget(args, ctx))).vid;
      await navigator.clipboard.writeText(text);
      flash('notice', many ? `Copied ${many.length} VIDs.` : `Copied ${text}.`);
      return { text };
    },
  }),
  defineCommand<IdArgs>({
    id: 'actions.viewRuns',
    title: 'View All Runs of Action',
    category: 'Actions',
    keywords: ['jobs', 'history', 'runs'],
    hotkey: 'r',
    hotkeyContext: ACTION_PANES,
    needsWorkbench: true,
    args: pickedIdArgs,
    run: async (args, ctx) => {
      const t = await withInfo(resolveTarget(args, ctx));
      libraryStore.previewId = null;
      dock(ctx).openUrl(`/jobs?vid=${encodeURIComponent(t.vid)}`);
    },
  }),
  defineCommand<{ id: number; param_name: EditableParam; new_value: string; auth_token?: string | undefined; brt_license?: string | undefined }>({
    id: 'actions.updateField',
    title: 'Edit Action Name, Description or Notes',
    category: 'Actions',
    keywords: ['rename', 'describe', 'notes', 'edit in place'],
    when: (ctx) => ctx.permissions.has('create_action_permission'),
    args: yup.object({
      id: actionId().required('Action id is required'),
      param_name: yup.string<EditableParam>().oneOf([...EDITABLE_PARAMS]).label('Field (name, description or notes)').required('Field is required'),
      new_value: yup.string().defined().label('New value').required('New value is required'),
      auth_token: yup.string().optional(),
      brt_license: yup.string().optional(),
    }),
    run: async (args, ctx) => {
      // The detail panel sends the token of the version it shows; a script without one edits the current version.
      const known = args.auth_token && args.brt_license ? { auth_token: args.auth_token, brt_license: args.brt_license } : await fetchDetail({ id: args.id });
      const data = await updateFromLibrary({ id: args.id, param_name: args.param_name, new_value: args.new_value, auth_token: known.auth_token, brt_license: known.brt_license });
      ctx.queryClient?.setQueriesData<ActionLibraryDetail>({ queryKey: libraryKeys.details }, (old) =>
        old && old.id === data.id ? { ...old, [data.param_name]: data.value, version: data.version, auth_token: data.auth_token, date_modified: data.date_modified } : old,
      );
      libraryStore.seenVersions[data.id] = data.version;
      await ctx.queryClient?.invalidateQueries({ queryKey: libraryKeys.lists });
      await ctx.queryClient?.invalidateQueries({ queryKey: libraryKeys.preview(data.id) });
      return data;
    },
  }),
  fileCommand('approve', 'Approve Pending File as Safe'),
  fileCommand('restrict', 'Restrict Pending File as Malicious', (f) => `Restrict ${f} as malicious? It can then run only in Protected Theater Host CLI, Malicious File Transfer and Email Theater Actions, never in cloud Actions.`, 'Restrict File'),
  fileCommand('remove', 'Remove Pending File from Action', (f) => `Remove ${f} from this Action? It stays in the File Library.`, 'Remove File'),
  defineCommand({
    id: 'actions.exportCsv',
    title: 'Export Action Library to CSV',
    category: 'Actions',
    keywords: ['download', 'csv', 'export'],
    run: async () => {
      flash('info', 'Preparing the library export…');
      const items = await fetchAllLibraryPages();
      const head = ['id', 'vid', 'name', 'action_type', 'approved', 'tags', 'last_run', 'total_runs', 'updated_at'];
      const rows = items.map((i) => [i.id, i.vid, i.name, i.action_type, i.approved, i.tags.map((t) => t.name).join('; '), i.last_run ?? '', i.total_runs, i.updated_at].map(csvField).join(','));
      downloadText('action-library.csv', [head.join(','), ...rows].join('\r\n'), 'text/csv');
      flash('notice', `Exported ${items.length} Actions.`);
      return { count: items.length };
    },
  }),
];
