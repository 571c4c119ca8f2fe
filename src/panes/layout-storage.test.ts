// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { LAYOUT_VERSION, layoutKey, loadLayout, saveLayout, withoutViewState } from './layout-storage';
import type { SerializedDockview } from 'dockview-react';

describe('layout storage', () => {
  const key = layoutKey(7);
  it('round-trips a layout under a versioned key', () => {
    localStorage.clear();
    const layout = { grid: { root: {}, width: 1, height: 1, orientation: 'HORIZONTAL' }, panels: {} } as unknown as SerializedDockview;
    saveLayout(key, layout);
    expect(key).toBe(`vigil.layout.v${LAYOUT_VERSION}:7`);
    expect(loadLayout(key)).toEqual({ status: 'ok', layout });
  });

  it('reports nothing saved, unreadable, older-version and incomplete layouts apart', () => {
    localStorage.clear();
    expect(loadLayout(key).status).toBe('none');
    localStorage.setItem(key, '{not json');
    expect(loadLayout(key).status).toBe('corrupt');
    localStorage.setItem(key, JSON.stringify({ version: LAYOUT_VERSION - 1, layout: { grid: {}, panels: {} } }));
    expect(loadLayout(key)).toMatchObject({ status: 'corrupt', reason: 'it was saved by another version' });
    localStorage.setItem(key, JSON.stringify({ version: LAYOUT_VERSION, layout: { panels: {} } }));
    expect(loadLayout(key)).toMatchObject({ status: 'corrupt', reason: 'it is incomplete' });
  });
});

describe('withoutViewState', () => {
  it('JOB-015 drops the view state a pane kind names (filters live in the URL and the feature storage), keeping identity and other panes', () => {
    const layout = {
      grid: { root: { type: 'branch', data: [] }, height: 1, width: 1, orientation: 'HORIZONTAL' },
      panels: {
        jobs: { id: 'jobs', contentComponent: 'pane', params: { kind: 'jobs', params: { vid: 'S1', filter: 'status:completed', rules: '[]' } } },
        users: { id: 'users', contentComponent: 'pane', params: { kind: 'users', params: { q: 'x' } } },
      },
    } as unknown as Parameters<typeof withoutViewState>[0];
    const out = withoutViewState(layout, (kind) => (kind === 'jobs' ? ['filter', 'rules'] : undefined));
    expect(out.panels.jobs!.params).toEqual({ kind: 'jobs', params: { vid: 'S1' } });
    expect(out.panels.users!.params).toEqual({ kind: 'users', params: { q: 'x' } });
  });
});
