import { describe, expect, it, vi } from 'vitest';
import { paneContexts } from '@/commands/pane-contexts';
import type { SavedFilterBody } from '@/api/contracts/filters';
import { filterHostPane, loadIntoTarget, loadPendingFilter, pendingFilterOf, type FilterHost } from './filter-host';

const body: SavedFilterBody = { rules: [], page: { job_name: 'dns' } };
const hostOf = (load: FilterHost['load']): FilterHost => ({
  target: 'jobs',
  url: '/jobs?vid=A1',
  focus: () => undefined,
  clear: () => undefined,
  apply: () => undefined,
  load,
  current: () => ({ rules: [], page: {} }),
});
/** What useFilterHost does when a Jobs pane mounts: provide its host, then take a waiting filter. */
const mount = (host: FilterHost) => {
  const off = paneContexts.provide(filterHostPane, { id: 'jobs-1', kind: 'jobs' }, host);
  loadPendingFilter(host);
  return off;
};

describe('saved filters and the panes that show them', () => {
  it('a mounted pane (focused or not) takes a saved filter once: nothing stays pending for its next mount', () => {
    const load = vi.fn();
    const off = mount(hostOf(load));
    expect(loadIntoTarget('jobs', body)).toBe('/jobs?vid=A1');
    expect(load).toHaveBeenCalledTimes(1);
    expect(pendingFilterOf('jobs')).toBeNull();
    off();
    // The pane closes and opens again: the filter is not applied a second time.
    const again = vi.fn();
    mount(hostOf(again))();
    expect(again).not.toHaveBeenCalled();
  });

  it('a pane not open yet takes the filter when it mounts, once', () => {
    expect(loadIntoTarget('jobs', body)).toBe('/jobs');
    expect(pendingFilterOf('jobs')).toEqual(body);
    const load = vi.fn();
    mount(hostOf(load))();
    expect(load).toHaveBeenCalledWith(body);
    expect(pendingFilterOf('jobs')).toBeNull();
    const again = vi.fn();
    mount(hostOf(again))();
    expect(again).not.toHaveBeenCalled();
  });

  it('a pane of another target is not taken for this one', () => {
    const load = vi.fn();
    const off = paneContexts.provide(filterHostPane, { id: 'lib-1', kind: 'actions' }, { ...hostOf(load), target: 'actions', url: '/manage_sims/actions' });
    expect(loadIntoTarget('jobs', body)).toBe('/jobs');
    expect(load).not.toHaveBeenCalled();
    off();
    expect(pendingFilterOf('jobs')).toEqual(body);
  });
});
