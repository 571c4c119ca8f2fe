import { describe, expect, it } from 'vitest';
import type { DockviewApi, SerializedDockview } from 'dockview-react';
import { DockController, redirectOf, type PanelParams } from './dock-controller';
import { PaneRegistry } from './registry';
import { SPEC_PANES } from './spec-routes';

/** A small stand-in for dockview: groups of panels, one active panel, add / move / close. */
function fakeDock() {
  interface Group { id: string; panels: Panel[] }
  interface Panel { id: string; params: PanelParams; group: Group; title: string; api: Record<string, (...a: never[]) => unknown> }
  let n = 0;
  const groups: Group[] = [];
  let active: Panel | null = null;
  const listeners: (() => void)[] = [];
  const newGroup = (after?: Group): Group => {
    const g: Group = { id: `g${++n}`, panels: [] };
    groups.splice(after ? groups.indexOf(after) + 1 : groups.length, 0, g);
    return g;
  };
  const setActive = (p: Panel) => {
    active = p;
    listeners.forEach((l) => l());
  };
  const place = (p: Panel, g: Group) => {
    p.group.panels.splice(p.group.panels.indexOf(p), 1);
    if (!p.group.panels.length) groups.splice(groups.indexOf(p.group), 1);
    p.group = g;
    g.panels.push(p);
  };
  const api = {
    get groups() {
      return groups;
    },
    get panels() {
      return groups.flatMap((g) => g.panels);
    },
    get activePanel() {
      return active;
    },
    getPanel: (id: string) => groups.flatMap((g) => g.panels).find((p) => p.id === id),
    onDidActivePanelChange: (l: () => void) => listeners.push(l),
    addPanel(o: { id: string; params: PanelParams; title: string; position?: { referenceGroup: Group; direction: 'within' | 'right' } }) {
      const g = !o.position ? (groups[0] ?? newGroup()) : o.position.direction === 'within' ? o.position.referenceGroup : newGroup(o.position.referenceGroup);
      const p: Panel = {
        id: o.id,
        params: o.params,
        group: g,
        title: o.title,
        api: {
          setActive: () => setActive(p),
          close: () => {
            g.panels.splice(g.panels.indexOf(p), 1);
            if (active === p) active = api.panels[0] ?? null;
          },
          moveTo: (({ group, position }: { group: Group; position?: string }) => place(p, position === 'right' ? newGroup(group) : group)) as never,
          updateParameters: ((x: PanelParams) => (p.params = x)) as never,
          setTitle: ((t: string) => (p.title = t)) as never,
        },
      };
      g.panels.push(p);
      setActive(p);
      return p;
    },
  };
  return api;
}

function setup() {
  const urls: string[] = ['/'];
  const history = { push: (u: string) => urls.push(u), replace: (u: string) => (urls[urls.length - 1] = u), current: () => urls.at(-1) ?? '/' };
  const controller = new DockController(new PaneRegistry(SPEC_PANES), history);
  const dock = fakeDock();
  controller.attach(dock as unknown as DockviewApi);
  return { controller, dock, urls };
}

describe('the dock', () => {
  it('a script step opens panes beside the Scripts pane (a new group, then that same group), never over it', () => {
    const { controller, dock } = setup();
    controller.openUrl('/scripts');
    const scripts = dock.activePanel!;
    const kept = controller.keepingInPlace(scripts.id, 'Scripts');
    kept.openUrl('/jobs/5');
    expect(dock.groups).toHaveLength(2);
    expect(dock.getPanel('job:5')?.group).not.toBe(scripts.group);
    expect(scripts.group.panels.map((p) => p.id)).toEqual([scripts.id]);
    kept.openUrl('/jobs/6');
    expect(dock.getPanel('job:6')?.group).toBe(dock.getPanel('job:5')?.group);
    expect(dock.groups).toHaveLength(2);
    // A pane already open in the Scripts pane's group moves out of the way.
    scripts.api.setActive!();
    controller.openUrl('/actors');
    expect(dock.getPanel('actors')?.group).toBe(scripts.group);
    kept.openUrl('/actors');
    expect(dock.getPanel('actors')?.group).not.toBe(scripts.group);
  });

  it('a script cannot close the pane running it, nor reset the layout, but may close the panes it opened', async () => {
    const { controller, dock } = setup();
    controller.openUrl('/scripts');
    const scripts = dock.activePanel!;
    const kept = controller.keepingInPlace(scripts.id, 'Scripts');
    expect(() => kept.closeActive()).toThrow('pane.close would close the Scripts pane running this script, so the step was refused.');
    expect(() => kept.resetLayout()).toThrow('layout.reset would close the Scripts pane running this script');
    expect(dock.getPanel(scripts.id)).toBeTruthy();
    kept.openUrl('/jobs/5');
    await kept.closeActive();
    expect(dock.getPanel('job:5')).toBeUndefined();
  });

  it('closing a guarded pane asks its guard; no keeps it open', async () => {
    const { controller, dock } = setup();
    controller.openUrl('/scripts');
    const scripts = dock.activePanel!;
    let answer = false;
    let asked = 0;
    const off = controller.guardClose(scripts.id, () => {
      asked++;
      return answer;
    });
    expect(await controller.closeActive()).toBe(false);
    expect(dock.getPanel(scripts.id)).toBeTruthy();
    answer = true;
    expect(await controller.requestClose(scripts.id)).toBe(true);
    expect(asked).toBe(2);
    expect(dock.getPanel(scripts.id)).toBeUndefined();
    off();
  });

  it('remembers the panes focused most recently (what the map reads to find the focused job)', () => {
    const { controller, dock } = setup();
    controller.openUrl('/jobs/5');
    controller.openUrl('/topology');
    expect(controller.recentPanelIds().slice(0, 2)).toEqual([dock.activePanel!.id, 'job:5']);
    dock.getPanel('job:5')!.api.close!();
    expect(controller.recentPanelIds()).not.toContain('job:5');
  });

  it('/users redirects to /admin/users, replacing the address', () => {
    expect(redirectOf('/users')).toBe('/admin/users');
    expect(redirectOf('/users/?x=1')).toBe('/admin/users?x=1');
    expect(redirectOf('/users/sign_in')).toBeNull();
    const { controller, dock, urls } = setup();
    urls.push('/users');
    controller.openUrl('/users');
    expect(dock.activePanel?.id).toBe('admin-users');
    expect(urls).toEqual(['/', '/admin/users']);
  });
});

describe('restoring a saved layout', () => {
  const layout = {
    grid: { root: { type: 'branch', data: [] }, width: 1, height: 1, orientation: 'HORIZONTAL' },
    panels: {
      start: { id: 'start', contentComponent: 'pane', title: 'Start', params: { kind: 'start', params: {} } },
      jobs: { id: 'jobs', contentComponent: 'pane', title: 'Jobs', params: { kind: 'jobs', params: {} } },
    },
  } as unknown as SerializedDockview;

  it('issue 21.4 the pane the reloaded URL names comes back with the URL params (its first render sees job=, not the saved params)', () => {
    const { controller } = setup();
    const restored = controller.layoutWithUrl(layout, '/jobs?page_filter=%7B%22job_status%22%3A%22completed%22%7D&job=313');
    expect(restored.panels.jobs!.params).toEqual({ kind: 'jobs', params: { page_filter: '{"job_status":"completed"}', job: '313' } });
    expect(restored.panels.start).toBe(layout.panels.start);
    // The saved layout itself is left as it was.
    expect(layout.panels.jobs!.params).toEqual({ kind: 'jobs', params: {} });
  });

  it('a URL naming a pane the layout does not have leaves the layout as saved (the pane opens after the restore)', () => {
    const { controller } = setup();
    expect(controller.layoutWithUrl(layout, '/jobs/5')).toBe(layout);
    expect(controller.layoutWithUrl(layout, '/')).toEqual(layout);
  });
});
