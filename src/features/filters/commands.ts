import * as yup from 'yup';
import { searchPicks } from '@/commands/entity-picks';
import { pickFrom } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import type { SavedFilter } from '@/api/contracts/filters';
import { deleteSavedFilter, filterKeys, saveFilter } from '@/ui/filters/api';
import { filterHostPane, loadIntoTarget, type FilterHost } from '@/ui/filters/filter-host';

/** Filter commands: they act on the filter panel of the focused pane (Jobs, Action library). */

const CATEGORY = 'Filters';
/** The saved filters to pick from, by name. */
const savedFilterPicks = searchPicks('filter', 'saved filter');

function host(ctx: CommandContext): FilterHost {
  const h = ctx.pane(filterHostPane);
  if (!h) throw new Error('Focus the Jobs pane or the Action library first.');
  return h;
}
const hasHost = (ctx: CommandContext) => ctx.pane(filterHostPane) !== undefined;

export const filterCommands: AnyCommand[] = [
  defineCommand({
    id: 'filters.focus',
    title: 'Focus Filter',
    category: CATEGORY,
    keywords: ['filter', 'rules', 'page filter', 'builder'],
    needsWorkbench: true,
    when: hasHost,
    run: (_a, ctx) => host(ctx).focus(),
  }),
  defineCommand({
    id: 'filters.clear',
    title: 'Clear Filter',
    category: CATEGORY,
    keywords: ['reset filter', 'remove rules'],
    needsWorkbench: true,
    when: hasHost,
    run: (_a, ctx) => host(ctx).clear(),
  }),
  defineCommand({
    id: 'filters.apply',
    title: 'Apply Filter',
    category: CATEGORY,
    keywords: ['update filter', 'rules'],
    needsWorkbench: true,
    when: hasHost,
    run: (_a, ctx) => host(ctx).apply(),
  }),
  defineCommand<{ name: string }>({
    id: 'filters.save',
    title: 'Save Filter As…',
    category: CATEGORY,
    keywords: ['name', 'saved filter'],
    needsWorkbench: true,
    when: hasHost,
    args: yup.object({ name: yup.string().trim().required().max(80).label('Filter name') }),
    run: async ({ name }, ctx) => {
      const h = host(ctx);
      const saved = await saveFilter(h.target, name, h.current());
      await ctx.queryClient?.invalidateQueries({ queryKey: filterKeys.saved });
      return { id: saved.id, name: saved.name };
    },
  }),
  defineCommand<{ id: number }>({
    id: 'filters.deleteSaved',
    title: 'Delete Saved Filter',
    category: CATEGORY,
    args: yup.object({ id: yup.number().integer().positive().required().label('Saved filter').meta(pickFrom(savedFilterPicks)) }),
    run: async ({ id }, ctx) => {
      await deleteSavedFilter(id);
      await ctx.queryClient?.invalidateQueries({ queryKey: filterKeys.saved });
      return { deleted: id };
    },
  }),
];

/**
 * The palette entry of one saved filter: loads it into its pane, focusing or opening that pane. A
 * mounted pane (focused or not) takes it at once; a pane not yet open takes it when it mounts.
 */
export function applySavedCommand(f: SavedFilter): AnyCommand {
  return defineCommand({
    id: `filters.applySaved.${f.id}`,
    title: `Apply filter: ${f.name}`,
    category: CATEGORY,
    keywords: [f.target === 'jobs' ? 'jobs' : 'actions library', 'saved filter'],
    needsWorkbench: true,
    run: (_a, ctx) => {
      const focused = ctx.pane(filterHostPane);
      if (focused?.target === f.target) focused.load(f.filter);
      else {
        const url = loadIntoTarget(f.target, f.filter);
        ctx.dock?.openUrl(url);
      }
      return { applied: f.id };
    },
  });
}

/** The palette entry that deletes one saved filter, after a confirmation: the palette is the picker of names. */
export function deleteSavedCommand(f: SavedFilter): AnyCommand {
  return defineCommand({
    id: `filters.deleteSaved.${f.id}`,
    title: `Delete saved filter: ${f.name}`,
    category: CATEGORY,
    keywords: [f.target === 'jobs' ? 'jobs' : 'actions library', 'remove saved filter'],
    run: async (_a, ctx) => {
      if (!(await ctx.confirm(`Delete the saved filter "${f.name}"?`, { confirmLabel: 'Delete Filter', cancelLabel: 'Keep Filter' }))) return { deleted: null };
      await deleteSavedFilter(f.id);
      await ctx.queryClient?.invalidateQueries({ queryKey: filterKeys.saved });
      return { deleted: f.id };
    },
  });
}
