import { SIMULATION_TYPE_LABELS } from '@/api/contracts/simulations';
import { defineCommand } from '@/commands/registry';
import { inMenu } from '@/commands/menus';
import type { AnyCommand, CommandContext } from '@/commands/types';
import type { Permission } from '@/api/contracts/permissions';
import { SIM_PANES, dock, refArgs, resolveSimulation, type RefArgs } from './resolve';
import { simStore, type CurrentSimulation } from './store';

/** The simulation header as its buttons see it. */
export type SimulationHeaderArgs = CurrentSimulation;

declare module '@/commands/menus' {
  interface MenuArgsMap {
    'toolbar/simulation': SimulationHeaderArgs;
  }
}

export const editUrl = (s: Pick<CurrentSimulation, 'vid' | 'simulation_type'>, mode: 'edit' | 'clone') =>
  `/simulation/${encodeURIComponent(s.vid)}/${mode}?sim_type=${s.simulation_type}`;
export const selectNodesUrl = (id: number) => `/simulations/select_nodes?sim_id=${id}`;

interface HeaderButton {
  verb: string;
  title: string;
  /** The button's label in the header (default the title). */
  label?: (s: SimulationHeaderArgs) => string;
  permission: Permission;
  /** More permissions the target needs (the monitor editor needs monitors.edit). */
  also?: Permission[];
  hotkey?: string;
  keywords: string[];
  style?: 'primary';
  act: (s: CurrentSimulation, ctx: CommandContext) => unknown;
  /** The URL of the pane it opens, when the simulation's id is enough to name it (fetched ahead on hover). */
  opens?: (id: number) => string;
}

/**
 * JOB-024, JOB-080: the header buttons by permission, in the spec's order: Return to {Type}s (back),
 * Description, Run (select_nodes), Monitor (create a monitor), Clone and Edit, Edit.
 */
const BUTTONS: HeaderButton[] = [
  {
    verb: 'back',
    title: 'Return to the Simulations List',
    label: (s) => `Return to ${SIMULATION_TYPE_LABELS[s.simulation_type]}s`,
    permission: 'simulations.back',
    keywords: ['back', 'list', 'sequences', 'evaluations'],
    act: (s, ctx) => dock(ctx).openUrl(`/simulations?sim_type=${s.simulation_type}&vid=${encodeURIComponent(s.vid)}`),
  },
  {
    verb: 'description',
    title: 'Simulation Description',
    label: () => 'Description',
    permission: 'simulations.description',
    keywords: ['description', 'about', 'details'],
    act: (s) => {
      simStore.description = s;
    },
  },
  {
    verb: 'selectNodes',
    title: 'Assign Actors and Run',
    label: () => 'Run',
    permission: 'simulations.select_nodes',
    also: ['jobs.run'],
    keywords: ['run', 'select nodes', 'actors', 'assign', 'map', 'steps'],
    style: 'primary',
    opens: selectNodesUrl,
    act: (s, ctx) => dock(ctx).openUrl(selectNodesUrl(s.id)),
  },
  {
    verb: 'monitor',
    title: 'Create a Monitor from this Simulation',
    label: () => 'Monitor',
    permission: 'simulations.monitor',
    also: ['monitors.edit'],
    keywords: ['monitor', 'schedule', 'repeat'],
    act: (s, ctx) => dock(ctx).openUrl(`/monitors/new?simulation_id=${s.id}`),
  },
  {
    verb: 'cloneEdit',
    title: 'Clone and Edit Simulation',
    label: () => 'Clone and Edit',
    permission: 'simulations.clone_edit',
    keywords: ['clone', 'copy', 'duplicate', 'new vid'],
    act: (s, ctx) => dock(ctx).openUrl(editUrl(s, 'clone')),
  },
  {
    verb: 'edit',
    title: 'Edit Simulation',
    label: () => 'Edit',
    permission: 'simulations.edit',
    hotkey: 'e',
    keywords: ['edit', 'change', 'steps', 'regroup', 'reorder'],
    act: (s, ctx) => dock(ctx).openUrl(editUrl(s, 'edit')),
  },
];

export const headerCommands: AnyCommand[] = BUTTONS.map((b, i) =>
  defineCommand<RefArgs>({
    id: `simulations.${b.verb}`,
    title: b.title,
    category: 'Simulations',
    keywords: ['sequence', 'evaluation', 'simulation', ...b.keywords],
    ...(b.hotkey ? { hotkey: b.hotkey, hotkeyContext: SIM_PANES } : {}),
    needsWorkbench: b.verb !== 'description',
    when: (ctx) => [b.permission, ...(b.also ?? [])].every((p) => ctx.permissions.has(p)),
    args: refArgs,
    menus: [
      inMenu<SimulationHeaderArgs>('toolbar/simulation', {
        group: '1_header',
        order: i,
        title: (s) => (b.label ? b.label(s) : b.title),
        args: (s) => ({ id: s.id }),
        ...(b.style ? { style: b.style } : {}),
      }),
    ],
    prefetch: (args: RefArgs | undefined, ctx: CommandContext) => {
      if (b.opens && args?.id) ctx.dock?.warmUrl?.(b.opens(args.id));
    },
    run: async (args, ctx) => {
      const s = await resolveSimulation(args, ctx);
      await b.act(s, ctx);
      return { id: s.id, vid: s.vid };
    },
  }),
);
