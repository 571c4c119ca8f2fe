import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { createScript, deleteScript, scriptsQueryKey, updateScript } from './api';
import { scriptsPane, type ScriptsPaneApi } from './pane-context';

const paneOf = (ctx: CommandContext): ScriptsPaneApi => {
  const p = ctx.pane(scriptsPane);
  if (!p) throw new Error('Open the Scripts pane first');
  return p;
};
const inPane = (ctx: CommandContext) => ctx.pane(scriptsPane) !== undefined;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Keys and buttons of the Scripts pane: they act on the script in the focused pane. */
export const scriptPaneCommands: AnyCommand[] = [
  defineCommand({
    id: 'scripts.runCurrent',
    title: 'Run Script in Pane',
    buttonLabel: 'Run',
    category: 'Scripts',
    hotkey: 'mod+enter',
    hotkeyContext: 'scripts',
    needsWorkbench: true,
    when: inPane,
    enabled: (ctx) => !paneOf(ctx).running(),
    run: (_a, ctx) => paneOf(ctx).execute(false),
  }),
  defineCommand({
    id: 'scripts.dryRunCurrent',
    title: 'Dry Run Script in Pane',
    buttonLabel: 'Dry Run',
    category: 'Scripts',
    hotkey: 'mod+shift+enter',
    hotkeyContext: 'scripts',
    needsWorkbench: true,
    when: inPane,
    enabled: (ctx) => !paneOf(ctx).running(),
    run: (_a, ctx) => paneOf(ctx).execute(true),
  }),
  defineCommand({
    id: 'scripts.saveCurrent',
    title: 'Save Script in Pane',
    buttonLabel: 'Save',
    category: 'Scripts',
    hotkey: 'mod+s',
    hotkeyContext: 'scripts',
    needsWorkbench: true,
    when: inPane,
    run: async (_a, ctx) => {
      const pane = paneOf(ctx);
      const d = pane.draft();
      const input = { name: d.name.trim(), body: d.body, shared: d.shared };
      if (!input.name) {
        flash('alert', 'Give the script a name before saving it.');
        return undefined;
      }
      const id = pane.loadedId();
      try {
        const saved = id !== null ? await updateScript(id, input) : await createScript(input);
        await ctx.queryClient?.invalidateQueries({ queryKey: scriptsQueryKey });
        pane.showSaved(saved);
        flash('notice', `Saved script "${saved.name}".`);
        return saved;
      } catch (e) {
        flash('alert', messageOf(e));
        return undefined;
      }
    },
  }),
  defineCommand({
    id: 'scripts.deleteCurrent',
    title: 'Delete Script in Pane',
    buttonLabel: 'Delete',
    category: 'Scripts',
    needsWorkbench: true,
    when: (ctx) => {
      const p = ctx.pane(scriptsPane);
      return !!p && p.loadedId() !== null && p.mayDelete();
    },
    run: async (_a, ctx) => {
      const pane = paneOf(ctx);
      const id = pane.loadedId();
      if (id === null || !(await ctx.confirm(`Delete the script "${pane.draft().name}"? This cannot be undone.`, { confirmLabel: 'Delete Script', cancelLabel: 'Keep Script' }))) return { deleted: false };
      try {
        await deleteScript(id);
        await ctx.queryClient?.invalidateQueries({ queryKey: scriptsQueryKey });
        pane.showDeleted();
        flash('notice', 'Script deleted.');
        return { deleted: true };
      } catch (e) {
        flash('alert', messageOf(e));
        return { deleted: false };
      }
    },
  }),
  defineCommand({
    id: 'scripts.stopCurrent',
    title: 'Stop Running Script',
    buttonLabel: 'Stop',
    category: 'Scripts',
    hotkey: 'mod+.',
    hotkeyContext: 'scripts',
    needsWorkbench: true,
    when: (ctx) => ctx.pane(scriptsPane)?.running() ?? false,
    run: (_a, ctx) => paneOf(ctx).stop(),
  }),
];
