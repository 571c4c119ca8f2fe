import * as yup from 'yup';
import { LAYOUT_MODES, SAVE_FAILED, type MapLayout } from '@/api/contracts/topology';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { layoutQueryKey, putLayout } from './api';
import { networkMapStore } from './store';

const signedIn = (ctx: CommandContext) => ctx.user !== null;
const noArgs = yup.object({});

/** Stores the mode and the operator's positions (and keeps the cached copy in step); a failure says JOB-110's message. */
export async function saveMapLayout(ctx: CommandContext): Promise<MapLayout> {
  let saved: MapLayout;
  try {
    saved = await putLayout({ mode: networkMapStore.mode, positions: { ...networkMapStore.positions } });
  } catch {
    throw new Error(SAVE_FAILED);
  }
  ctx.queryClient?.setQueryData(layoutQueryKey, saved);
  return saved;
}

/** A Network Map command without arguments. */
function mapCommand<R>(id: `networkMap.${string}`, title: string, keywords: string[], run: (ctx: CommandContext) => R | Promise<R>, needsWorkbench = false) {
  return defineCommand<Record<string, never>, R>({
    id,
    title,
    category: 'Network Map',
    keywords: ['network', 'map', 'topology', ...keywords],
    needsWorkbench,
    when: signedIn,
    args: noArgs,
    run: (_args, ctx) => run(ctx),
  });
}

export const networkMapCommands: AnyCommand[] = [
  ...LAYOUT_MODES.map((mode, i) =>
    mapCommand(`networkMap.layout${mode}`, `Layout: ${mode}`, ['layout', `L${i + 1}`, mode.toLowerCase()], (ctx) => {
      ctx.dock?.openUrl('/topology');
      networkMapStore.mode = mode;
      return saveMapLayout(ctx);
    }),
  ),
  mapCommand(
    'networkMap.fit',
    'Fit map to view',
    ['zoom', 'fit', 'center'],
    (ctx) => {
      ctx.dock?.openUrl('/topology');
      networkMapStore.fitRequests += 1;
      return null;
    },
    true,
  ),
  mapCommand('networkMap.save', 'Save map layout', ['layout', 'positions', 'store'], (ctx) => saveMapLayout(ctx)),
  // The chart modes (jobs-simulations-network-map.md "Network map"): aeda draws the monitor stats on the map.
  mapCommand(
    'networkMap.chartAeda',
    'Network Map: Show Monitor Stats',
    ['aeda', 'monitor', 'stats', 'alert', 'paths', 'chart'],
    (ctx) => {
      ctx.dock?.openUrl('/topology?chart=aeda');
      return null;
    },
    true,
  ),
  mapCommand(
    'networkMap.chartDefault',
    'Network Map: Hide Monitor Stats',
    ['default', 'chart', 'monitor', 'stats'],
    (ctx) => {
      ctx.dock?.openUrl('/topology');
      return null;
    },
    true,
  ),
];
