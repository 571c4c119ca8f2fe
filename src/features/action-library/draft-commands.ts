import * as yup from 'yup';
import { DRAFT_NAME_MAX, generateDraft, draftDescription, type CreateSimulationAnswer } from '@/api/contracts/simulation-draft';
import { SIMULATION_TYPES, type SimulationType } from '@/api/contracts/simulations';
import { http } from '@/api/http';
import { inMenu } from '@/commands/menus';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { fetchFilters } from './api';
import { libraryStore } from './store';
import { draftStore } from './draft-store';
import { LIBRARY_PANE } from './commands';

export const QUEUE_PANE = 'actions-queue';
export const QUEUE_URL = '/manage_sims/actions/queue';

/** 'Add all' drafts the library selection, or the Actions another command gives (with a name and description). */
interface DraftArgs {
  sim_type?: SimulationType | undefined;
  actions?: { id: number; name: string }[] | undefined;
  sim_name?: string | undefined;
  sim_desc?: string | undefined;
}

const canEdit = (ctx: CommandContext) => ctx.permissions.has('simulations.edit');

async function tagNames(ids: readonly number[]): Promise<string[]> {
  if (!ids.length) return [];
  const filters = await fetchFilters(false);
  const byId = new Map(filters.tag_groups.flatMap((g) => g.tags).map((t) => [t.id, t.name]));
  return ids.map((id) => byId.get(id)).filter((n): n is string => !!n);
}

/** 'Add all' (JOB-022, JOB-079, JOB-118) and saving the draft on the queue page. */
export const draftCommands: AnyCommand[] = [
  defineCommand<DraftArgs>({
    id: 'actions.addAll',
    title: 'Add all',
    category: 'Actions',
    menus: [
      inMenu('menu/action-queue', { order: 0, args: () => ({ sim_type: 'sequence' }) }),
      inMenu('menu/action-queue', { order: 1, title: 'Add all as Evaluation', args: () => ({ sim_type: 'eval' }) }),
    ],
    keywords: ['queue', 'simulation', 'sequence', 'evaluation', 'draft', 'create'],
    needsWorkbench: true,
    // Drafts the library's selection (or the Actions another command gives): hidden outside the library (the Start pane).
    when: (ctx, a) => canEdit(ctx) && (!!a?.actions?.length || !ctx.dock || ctx.activePane?.kind === LIBRARY_PANE),
    args: yup.object({
      sim_type: yup.string<SimulationType>().oneOf([...SIMULATION_TYPES]).label('Type (sequence or eval)').optional(),
      // Given by other commands (the ATT&CK view's untested techniques), not asked in the palette.
      actions: yup.array(yup.object({ id: yup.number().integer().positive().required(), name: yup.string().required() })).optional(),
      sim_name: yup.string().trim().max(DRAFT_NAME_MAX).optional(),
      sim_desc: yup.string().max(10000).optional(),
    }) as yup.Schema<DraftArgs>,
    run: async (args, ctx) => {
      const given = args?.actions?.length ? args.actions.map((a) => ({ id: a.id, name: a.name })) : null;
      const items = given ?? (libraryStore.selectedItems.length ? [...libraryStore.selectedItems] : libraryStore.current ? [{ id: libraryStore.current.id, name: libraryStore.current.name }] : []);
      if (!items.length) throw new Error('Select Actions in the library first.');
      const draft = generateDraft(items, given ? [] : await tagNames(libraryStore.activeTagIds), args?.sim_type ?? 'sequence');
      draftStore.draft = { ...draft, ...(args?.sim_name ? { sim_name: args.sim_name } : {}), ...(args?.sim_desc ? { sim_desc: args.sim_desc } : {}) };
      if (!ctx.dock) throw new Error('This command needs the workbench.');
      ctx.dock.openUrl(QUEUE_URL);
      return { draft: draftStore.draft };
    },
  }),
  defineCommand({
    id: 'actions.saveDraft',
    title: 'Save Simulation Draft',
    category: 'Actions',
    keywords: ['queue', 'simulation', 'create'],
    needsWorkbench: true,
    when: (ctx) => canEdit(ctx) && draftStore.draft !== null,
    run: async (_args, ctx) => {
      const d = draftStore.draft;
      if (!d) throw new Error('There is no simulation draft: use Add all in the Action library.');
      const answer = await http.post<CreateSimulationAnswer>('/simulations.json', { sim_type: d.sim_type, sim_name: d.sim_name, sim_desc: d.sim_desc, steps: d.steps, step_names: d.step_names });
      draftStore.draft = null;
      await ctx.queryClient?.invalidateQueries();
      flash('notice', `Saved ${answer.vid}.`);
      ctx.dock?.openUrl(`/simulation/${encodeURIComponent(answer.vid)}?sim_type=${d.sim_type}`);
      return answer;
    },
  }),
];

/** Switches the draft's type; a generated description follows the type (JOB-118). */
export function setDraftType(type: SimulationType): void {
  const d = draftStore.draft;
  if (!d) return;
  if (SIMULATION_TYPES.some((t) => d.sim_desc === draftDescription(t))) d.sim_desc = draftDescription(type);
  d.sim_type = type;
}
