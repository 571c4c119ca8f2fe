import { http } from '@/api/http';
import type { LibraryListAnswer } from '@/api/contracts/library';
import type { PickSource } from '@/commands/pick';
import { fetchMonitors } from './api';
import { monitorsListPane } from './pane-context';

/** The pick lists of the monitor commands' entity arguments (the palette searches them by name). */

const PAGE = 20;

export const monitorPicks: PickSource = {
  noun: 'monitor',
  search: async (query, signal) => {
    const list = await fetchMonitors({ search: query, sort: 'name', dir: 'asc' }, signal);
    return list.data.slice(0, PAGE).map((m) => ({ value: m.id, label: m.name, detail: m.paused ? `${m.schedule} (paused)` : m.schedule }));
  },
  current: (ctx) => {
    const m = ctx.pane(monitorsListPane)?.selected();
    return m ? { value: m.id, label: m.name } : null;
  },
};

export const simulationPicks: PickSource = {
  noun: 'simulation',
  search: async (query, signal) => {
    // Sequences and evaluations are listed apart; a monitor runs either.
    const lists = await Promise.all(
      (['sequence', 'eval'] as const).map((type) =>
        http.get<LibraryListAnswer>('/v2/simulations/library_simulations_list', {
          params: { simulation_type: type, search: query || undefined, page_size: PAGE, page_number: 1, sort: 'name', direction: 'asc' },
          signal,
        }),
      ),
    );
    return lists
      .flatMap((l) => l.simulations)
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, PAGE)
      .map((s) => ({ value: s.id, label: s.name, detail: `${s.vid} · ${s.simulation_type === 'eval' ? 'evaluation' : 'sequence'}` }));
  },
};

export const actionPicks: PickSource = {
  noun: 'action',
  search: async (query, signal) => {
    const list = await http.get<LibraryListAnswer>('/manage_sims/v2/actions/library_actions_list', {
      params: { search: query || undefined, page_size: PAGE, page_number: 1, sort: 'name', direction: 'asc' },
      signal,
    });
    return list.actions.map((a) => ({ value: a.id, label: a.name, detail: `${a.vid} · ${a.action_type}` }));
  },
};
