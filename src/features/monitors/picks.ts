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
