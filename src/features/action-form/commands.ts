import * as yup from 'yup';
import { proxy } from 'valtio';
import type { ActionFormPayload } from '@/api/contracts/action-form';
import { defineCommand } from '@/commands/registry';
import { actionPicks, currentActionPane } from '@/commands/entity-picks';
import { pickFrom, scriptOnly } from '@/commands/pick';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { createAction, getLoadedAction, updateAction } from './api';
import { FORM_PANE_KINDS, actionFormPane, pcapUploadPane, type FormController, type FormPaneKind } from './pane-context';
import { ACTION_TYPES, type ActionType } from '@/api/contracts/vocabulary';

/** The fuzzy action picker of Edit Action… and Clone Action… (a global modal). */
export const pickerStore = proxy<{ open: boolean; purpose: 'edit' | 'clone' }>({ open: false, purpose: 'edit' });

const canCreate = (ctx: CommandContext) => ctx.permissions.has('create_action_permission');

export const NEW_ACTION_URL = '/manage_sims/actions/unified_action/new';
export const editUrl = (id: number, type: ActionType) => (type === 'cloud' ? `/manage_sims/actions/cloud_action/${id}/edit` : `/manage_sims/actions/${id}/edit`);
export const cloneUrl = (id: number) => `/manage_sims/actions/${id}/clone`;

function dock(ctx: CommandContext) {
  if (!ctx.dock) throw new Error('This command needs the workbench');
  return ctx.dock;
}

async function resolveAction(ref: string): Promise<{ id: number; type: ActionType }> {
  const a = await getLoadedAction(ref.trim());
  return { id: a.id, type: a.action_type };
}

const FORM_COMMANDS: { op: string; title: string; buttonLabel?: string; hotkey?: string; keywords?: string[]; run: (c: FormController) => unknown; enabled?: (c: FormController) => boolean }[] = [
  { op: 'save', buttonLabel: 'Save', title: 'Save Action', hotkey: 'mod+s', keywords: ['submit', 'store'], run: (c) => c.save() },
  { op: 'reset', buttonLabel: 'Reset', title: 'Reset Action Form', hotkey: 'alt+shift+r', keywords: ['restore', 'undo', 'loaded values'], run: (c) => c.reset(), enabled: (c) => c.canSave() },
  { op: 'cancel', buttonLabel: 'Cancel', title: 'Cancel Action Form', hotkey: 'alt+shift+c', keywords: ['close', 'discard'], run: (c) => c.cancel() },
  { op: 'continue', buttonLabel: 'Continue', title: 'Continue to the Next Step', hotkey: 'alt+n', keywords: ['wizard', 'next'], run: (c) => c.next() },
  { op: 'previous', buttonLabel: 'Previous', title: 'Previous Step', hotkey: 'alt+p', keywords: ['wizard', 'back'], run: (c) => c.previous() },
  { op: 'toggleSteps', title: 'Show All Steps / Show As Wizard', hotkey: 'alt+shift+a', keywords: ['wizard', 'all steps', 'toggle'], run: (c) => c.toggleView() },
  { op: 'step1', title: 'Go to Step 1: Name/Description', hotkey: 'alt+1', keywords: ['wizard'], run: (c) => c.goTo(1) },
  { op: 'step2', title: 'Go to Step 2: Action Details', hotkey: 'alt+2', keywords: ['wizard'], run: (c) => c.goTo(2) },
  { op: 'step3', title: 'Go to Step 3: Tags/Dimensions', hotkey: 'alt+3', keywords: ['wizard'], run: (c) => c.goTo(3) },
  { op: 'fillTestValues', title: 'Fill Action Form with Test Values', hotkey: 'mod+alt+shift+t', keywords: ['hidden', 'sample', 'demo'], run: (c) => c.fillTestValues() },
];

/** Pane-local commands of one form pane kind: visible and bound only while that pane is focused. */
function formCommands(kind: FormPaneKind): AnyCommand[] {
  return FORM_COMMANDS.map((f) =>
    defineCommand({
      id: `${kind}.${f.op}`,
      title: f.title,
      ...(f.buttonLabel ? { buttonLabel: f.buttonLabel } : {}),
      category: 'Action Form',
      keywords: [...(f.keywords ?? []), 'action form'],
      ...(f.hotkey ? { hotkey: f.hotkey } : {}),
      hotkeyContext: kind,
      when: (ctx) => ctx.activePane?.kind === kind && (f.op !== 'save' && f.op !== 'reset' && f.op !== 'cancel' && f.op !== 'fillTestValues' ? true : canCreate(ctx)) && ctx.pane(actionFormPane) !== undefined,
      enabled: (ctx) => {
        const c = ctx.pane(actionFormPane);
        return !!c && (!f.enabled || f.enabled(c));
      },
      run: (_args, ctx) => {
        const c = ctx.pane(actionFormPane);
        if (!c) throw new Error('No Action form is focused');
        return f.run(c);
      },
    }),
  );
}

/** A payload given as an object (scripts) or as JSON text (the palette's prompt). */
function asPayload(p: ActionFormPayload | string): ActionFormPayload {
  if (typeof p !== 'string') return p;
  try {
    return JSON.parse(p) as ActionFormPayload;
  } catch {
    throw new Error('payload must be JSON: the body of POST /manage_sims/actions.json');
  }
}

const actionFocused = (ctx: CommandContext) => !!ctx.pane(currentActionPane)?.current();
/**
 * A script names the Action by VID or id; the palette asks with the Action picker dialog (a searchable
 * list of Actions) that the command opens when no Action is given, so its form does not ask.
 */
const refArgs = yup.object({ action: yup.string().trim().optional().label('Action (VID or id)').meta(scriptOnly()) });

export const actionFormCommands: AnyCommand[] = [
  defineCommand<{ action_type?: string }>({
    id: 'actions.new',
    title: 'New Action',
    category: 'Actions',
    keywords: ['add action', 'create', 'author', 'wizard'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && canCreate(ctx),
    args: yup.object({ action_type: yup.string().oneOf([...ACTION_TYPES]).optional().label('Action type') }) as yup.Schema<{ action_type?: string }>,
    run: (args, ctx) => dock(ctx).openUrl(args?.action_type ? `${NEW_ACTION_URL}?action_type=${args.action_type}` : NEW_ACTION_URL),
  }),
  defineCommand<{ action?: string }>({
    id: 'actionForm.edit',
    title: 'Edit Action…',
    category: 'Actions',
    keywords: ['change', 'modify', 'open form'],
    needsWorkbench: true,
    // Where an Action is shown or selected, the library's Edit Action acts on it instead (one entry in the palette).
    when: (ctx, a) => ctx.dock !== null && (!!a?.action || !actionFocused(ctx)),
    args: refArgs as yup.Schema<{ action?: string }>,
    run: async (args, ctx) => {
      if (!args?.action) {
        pickerStore.purpose = 'edit';
        pickerStore.open = true;
        return;
      }
      const { id, type } = await resolveAction(args.action);
      dock(ctx).openUrl(editUrl(id, type));
    },
  }),
  defineCommand<{ action?: string }>({
    id: 'actionForm.clone',
    title: 'Clone Action…',
    category: 'Actions',
    keywords: ['copy', 'duplicate'],
    needsWorkbench: true,
    when: (ctx, a) => ctx.dock !== null && canCreate(ctx) && (!!a?.action || !actionFocused(ctx)),
    args: refArgs as yup.Schema<{ action?: string }>,
    run: async (args, ctx) => {
      if (!args?.action) {
        pickerStore.purpose = 'clone';
        pickerStore.open = true;
        return;
      }
      const { id } = await resolveAction(args.action);
      dock(ctx).openUrl(cloneUrl(id));
    },
  }),
  defineCommand<{ action_type?: 'pcap' | 'captive_ioc_pcap' }>({
    id: 'pcap.createActionFromCapture',
    title: 'Create Action from Capture',
    category: 'PCAP',
    keywords: ['pcap', 'packet capture', 'new action', 'conversations', 'replay'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && canCreate(ctx),
    args: yup.object({ action_type: yup.string().oneOf(['pcap', 'captive_ioc_pcap'], 'pcap or captive_ioc_pcap').optional().label('Action type') }) as yup.Schema<{
      action_type?: 'pcap' | 'captive_ioc_pcap';
    }>,
    run: (args, ctx) => dock(ctx).openUrl(`${NEW_ACTION_URL}?action_type=${args?.action_type ?? 'pcap'}`),
  }),
  defineCommand({
    id: 'pcap.uploadCapture',
    title: 'Upload Capture…',
    category: 'PCAP',
    keywords: ['pcap', 'browse', 'file', 'packet capture', 'upload'],
    needsWorkbench: true,
    when: (ctx) => canCreate(ctx) && !!ctx.pane(pcapUploadPane)?.openPicker,
    run: (_a, ctx) => {
      const open = ctx.pane(pcapUploadPane)?.openPicker;
      if (!open) throw new Error('Open the Action Details step of a PCAP Action form first');
      open();
    },
  }),
  // Scripts and a terminal runner: save without the form.
  defineCommand<{ payload: ActionFormPayload }>({
    id: 'actions.create',
    title: 'Create Action from Payload',
    category: 'Actions',
    keywords: ['script', 'api'],
    when: canCreate,
    args: yup.object({ payload: yup.mixed<ActionFormPayload>().required('payload is required') }) as yup.Schema<{ payload: ActionFormPayload }>,
    run: async ({ payload }, ctx) => {
      const answer = await createAction(asPayload(payload));
      await ctx.queryClient?.invalidateQueries();
      return answer;
    },
  }),
  defineCommand<{ id: number; payload: ActionFormPayload }>({
    id: 'actions.update',
    title: 'Update Action from Payload',
    category: 'Actions',
    keywords: ['script', 'api'],
    when: canCreate,
    args: yup.object({ id: yup.number().integer().positive().required('id is required').label('Action').meta(pickFrom(actionPicks)), payload: yup.mixed<ActionFormPayload>().required('payload is required') }) as yup.Schema<{
      id: number;
      payload: ActionFormPayload;
    }>,
    run: async ({ id, payload }, ctx) => {
      const answer = await updateAction(id, asPayload(payload));
      await ctx.queryClient?.invalidateQueries();
      return answer;
    },
  }),
  ...FORM_PANE_KINDS.flatMap(formCommands),
];
