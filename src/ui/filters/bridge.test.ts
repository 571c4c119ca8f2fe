import { describe, expect, it, vi } from 'vitest';
import type { SavedFilterBody } from '@/api/contracts/filters';
import { loadIntoTarget, pendingFilterOf, registerFilterHost, type FilterHost } from './bridge';

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

describe('saved filters and the panes that show them', () => {
  it('a mounted pane (focused or not) takes a saved filter once: nothing stays pending for its next mount', () => {
    const load = vi.fn();
    const off = registerFilterHost('jobs', hostOf(load));
    expect(loadIntoTarget('jobs', body)).toBe('/jobs?vid=A1');
    expect(load).toHaveBeenCalledTimes(1);
    expect(pendingFilterOf('jobs')).toBeNull();
    off();
    // The pane closes and opens again: the filter is not applied a second time.
    const again = vi.fn();
    registerFilterHost('jobs', hostOf(again))();
    expect(again).not.toHaveBeenCalled();
  });

  it('a pane not open yet takes the filter when it mounts, once', () => {
    expect(loadIntoTarget('jobs', body)).toBe('/jobs');
    expect(pendingFilterOf('jobs')).toEqual(body);
    const load = vi.fn();
    registerFilterHost('jobs', hostOf(load))();
    expect(load).toHaveBeenCalledWith(body);
    expect(pendingFilterOf('jobs')).toBeNull();
    const again = vi.fn();
    registerFilterHost('jobs', hostOf(again))();
    expect(again).not.toHaveBeenCalled();
  });
});
