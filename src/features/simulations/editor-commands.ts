import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { ApiError } from '@/api/http';
import { flash } from '@/ui/toasts';
import { saveSimulation, simKeys } from './api';
import { draftBody, draftKey, draftProblems, editorStore, undoRemove, type EditorDraft, type EditorMode } from './editor-store';
import { SIMULATION_CLONE_PANE, SIMULATION_EDIT_PANE } from './resolve';

const EDITOR_PANES = [SIMULATION_EDIT_PANE, SIMULATION_CLONE_PANE];
const modeOf = (kind: string): EditorMode | null => (kind === SIMULATION_EDIT_PANE ? 'edit' : kind === SIMULATION_CLONE_PANE ? 'clone' : null);

/** The draft of the focused editor pane (commands act on it), or null. */
function focusedDraft(ctx: CommandContext): { key: string; draft: EditorDraft } | null {
  const pane = ctx.activePane;
  const mode = pane ? modeOf(pane.kind) : null;
  if (!pane || !mode || !pane.params.vid) return null;
  const key = draftKey(mode, pane.params.vid);
  const draft = editorStore.drafts[key];
  return draft ? { key, draft } : null;
}

function needDraft(ctx: CommandContext) {
  const found = focusedDraft(ctx);
  if (!found) throw new Error('Open a simulation in the editor first (Edit, or Clone and Edit).');
  return found;
}

const inEditor = (ctx: CommandContext) => !!ctx.activePane && EDITOR_PANES.includes(ctx.activePane.kind);
const canSave = (ctx: CommandContext, mode: EditorMode | null) => ctx.permissions.has(mode === 'clone' ? 'simulations.clone_edit' : 'simulations.edit');

/** Save, Reload (discard) and Undo Remove of the simulation editor (issue 19). */
export const editorCommands: AnyCommand[] = [
  defineCommand({
    id: 'simulations.saveEdit',
    title: 'Save Simulation',
    category: 'Simulations',
    keywords: ['save', 'edit', 'clone', 'store', 'sequence', 'evaluation'],
    hotkey: 'mod+s',
    hotkeyContext: EDITOR_PANES,
    needsWorkbench: true,
    when: (ctx) => inEditor(ctx) && canSave(ctx, modeOf(ctx.activePane?.kind ?? '')),
    run: async (_args, ctx) => {
      const { key, draft } = needDraft(ctx);
      const problems = draftProblems(draft);
      if (problems.length) {
        draft.error = problems.join(' ');
        throw new Error(draft.error);
      }
      try {
        const saved = await saveSimulation(draft.mode, draft.id, draftBody(draft));
        delete editorStore.drafts[key];
        await ctx.queryClient?.invalidateQueries({ queryKey: simKeys.all });
        flash('notice', draft.mode === 'clone' ? `Saved the copy as ${saved.vid}.` : `Saved ${saved.vid}.`);
        ctx.dock?.openUrl(`/simulation/${encodeURIComponent(saved.vid)}?sim_type=${draft.sim_type}`);
        return saved;
      } catch (e) {
        // The draft stays as typed; the message shows in the editor (and a 409 offers Reload).
        draft.error = e instanceof Error ? e.message : 'The simulation could not be saved.';
        draft.conflict = e instanceof ApiError && e.status === 409;
        throw e;
      }
    },
  }),
  defineCommand({
    id: 'simulations.reloadEdit',
    title: 'Reload Simulation (discard my changes)',
    category: 'Simulations',
    keywords: ['reload', 'discard', 'revert', 'conflict', 'refresh'],
    needsWorkbench: true,
    when: inEditor,
    run: async (_args, ctx) => {
      const { key, draft } = needDraft(ctx);
      if (!draft.conflict && !(await ctx.confirm('Discard your changes and reload the simulation?', { confirmLabel: 'Discard and Reload', cancelLabel: 'Keep Editing' }))) return null;
      delete editorStore.drafts[key];
      await ctx.queryClient?.invalidateQueries({ queryKey: simKeys.all });
      return { vid: draft.vid };
    },
  }),
  defineCommand({
    id: 'simulations.undoRemove',
    title: 'Undo Remove',
    category: 'Simulations',
    keywords: ['undo', 'restore', 'removed', 'step', 'action'],
    hotkey: 'alt+z',
    hotkeyContext: EDITOR_PANES,
    needsWorkbench: true,
    when: inEditor,
    enabled: (ctx) => (focusedDraft(ctx)?.draft.removed.length ?? 0) > 0,
    run: (_args, ctx) => {
      const name = undoRemove(needDraft(ctx).draft);
      if (!name) throw new Error('Nothing was removed.');
      flash('notice', `Restored ${name}.`);
      return { restored: name };
    },
  }),
];
