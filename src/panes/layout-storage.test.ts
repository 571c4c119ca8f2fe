// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { LAYOUT_VERSION, layoutKey, loadLayout, saveLayout } from './layout-storage';
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
