import { http } from '@/api/http';
import type { RunAnswer } from '@/api/contracts/engine';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { fetchSimulationPreview } from './api';
import { assignSteps, runBody } from './assignment';

export const SELECT_NODES_PANE = 'select-nodes';

/** Runs the simulation of the focused Assign Actors pane, each step between its own assigned actors (issue 19). */
export const selectNodesCommands: AnyCommand[] = [
  defineCommand({
    id: 'simulations.runAssigned',
    title: 'Run with the Assigned Actors',
    category: 'Simulations',
    keywords: ['run', 'select nodes', 'assign', 'actors', 'steps', 'job'],
    hotkey: 'mod+enter',
    hotkeyContext: SELECT_NODES_PANE,
    needsWorkbench: true,
    when: (ctx) => ctx.activePane?.kind === SELECT_NODES_PANE && ctx.permissions.has('jobs.run') && ctx.permissions.has('simulations.select_nodes'),
    run: async (_args, ctx) => {
      const params = ctx.activePane?.params ?? {};
      const id = Number(params.sim_id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new Error('Open a simulation to assign actors first.');
      const p = await fetchSimulationPreview({ id });
      const { steps } = assignSteps(p, params);
      const open = steps.filter((s) => !s.done).map((s) => s.n);
      if (open.length) throw new Error(`Choose the actors of step${open.length === 1 ? '' : 's'} ${open.join(', ')} first.`);
      const job = await http.post<RunAnswer>(`/run/${p.simulation_type === 'eval' ? 'evaluations' : 'sequences'}/${p.id}.json`, runBody(steps));
      await ctx.queryClient?.invalidateQueries({ queryKey: ['jobs'] });
      flash('notice', `Job ${job.job_id} (${job.name}) was created and is running.`);
      ctx.dock?.openUrl(job.url);
      return { ...job, id: job.job_id };
    },
  }),
];
