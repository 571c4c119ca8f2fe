import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PERMISSIONS } from '@/api/contracts/permissions';
import type { BulkTokenRow } from '@/api/contracts/actors';
import type { JobAction } from '@/api/contracts/jobs';
import { CommandButton, CommandMenu } from '@/commands/command-menu';
import { hotkeyLabel, hotkeyText } from '@/commands/hotkey-format';
import { MENUS, placementsOf, type MenuId } from '@/commands/menus';
import { CommandRegistry, emptyContext, hotkeysOf } from '@/commands/registry';
import type { CommandContext, DockControl } from '@/commands/types';
import { scriptsPane } from '@/features/scripts/pane-context';
import { paneContexts } from '@/commands/pane-contexts';
import { headlessCommands } from './headless-commands';

// Headless UI anchors open menus with a ResizeObserver, which jsdom lacks.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const dock: DockControl = { openUrl: () => undefined, focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
const user = { id: 1, email: 'admin@example.com', first_name: 'Ada', last_name: 'Admin', role: 'admin' as const, permissions: [...PERMISSIONS] };
const ctx = (kind = 'jobs'): CommandContext => ({ ...emptyContext(), user, permissions: new Set(PERMISSIONS), dock, activePane: { kind, params: {} } });

const job = { id: 812, job_status: 'completed' as const, simulation: { id: 3, vid: 'S300-1', sim_type: 'eval' as const }, action: null };
const action: JobAction = {
  id: 55, job_id: 812, job_step_id: 9, position: 1, name: 'Beacon', sim_action_id: 77, sim_action_vid: 'A201-1', status: 'completed', alerted: false, blocked: true,
  blocked_msg: null, detected_msg: null, reason: null, events: 2, suspect_events: 1, disabled: false, action_type: 'dns', started_at: null, finished_at: null,
};
const actionDetail = { id: 41, vendor: false, userPermissions: { edit: true, approve: true, endpointApproval: true, cloudApproval: true } };
const bulkToken: BulkTokenRow = {
  id: 3, name: 'Lab', status: 'Active', status_details: null, active_pending: 0, registered: 1, created_at: '2026-11-24T10:00:00Z', expires_at: '2026-11-25T10:00:00Z',
  created_by: 'admin@example.com', links: { pending: '', csv: '', delete: '', register_push: '', installer: '' }, actions: ['pending', 'download', 'installer', 'register_push', 'clear'],
};
/** What each menu passes its items, as the workbench renders it. */
const MENU_ARGS: Record<MenuId, unknown> = {
  'pane/tab': undefined, 'row/job': job, 'row/job-action': action, 'toolbar/jobs-selection': undefined, 'toolbar/jobs-export': undefined, 'toolbar/job': job,
  'toolbar/action-detail': actionDetail, 'menu/action-queue': undefined, 'row/bulk-token': bulkToken, 'row/monitor': { id: 7 }, 'toolbar/monitors': undefined,
  'toolbar/simulation': { id: 3, vid: 'S300-1', name: 'Sim', simulation_type: 'eval' },
  'toolbar/dashboards': undefined, 'row/dashboard': { id: 4, editable: true }, 'toolbar/dashboard': { id: 4, editable: true }, 'panel/dashboard': { id: 4, uid: 'gauge1', title: 'Gauge' },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function registry(kind = 'jobs') {
  const r = new CommandRegistry(() => ctx(kind));
  r.registerAll(headlessCommands());
  return r;
}

afterEach(() => vi.restoreAllMocks());

describe('every menu item comes from the registry', () => {
  it('every placement names a declared menu, and every declared menu lists commands', () => {
    const all = headlessCommands();
    for (const c of all) for (const p of placementsOf(c)) expect(Object.keys(MENUS), `${c.id} -> ${p.menu}`).toContain(p.menu);
    const used = new Set(all.flatMap((c) => placementsOf(c).map((p) => p.menu)));
    expect([...used].sort()).toEqual(Object.keys(MENUS).sort());
  });

  for (const menu of Object.keys(MENUS) as MenuId[]) {
    it(`each item of ${menu} executes its own command with its args from a menu`, () => {
      // Each menu in the pane that renders it (the Queue menu is the Action library's).
      const r = registry(menu === 'toolbar/job' ? 'job' : menu === 'panel/dashboard' ? 'dashboard' : menu === 'menu/action-queue' ? 'actions' : 'jobs');
      const items = r.menuItems(menu, MENU_ARGS[menu]);
      expect(items.length, menu).toBeGreaterThan(0);
      const execute = vi.spyOn(r, 'execute').mockResolvedValue(undefined);
      render(<CommandMenu menu={menu} args={MENU_ARGS[menu] as never} label={`Menu ${menu}`} registry={r} />);
      for (const item of items) {
        fireEvent.click(screen.getByRole('button', { name: `Menu ${menu}` }));
        const entry = within(screen.getByRole('menu')).getByRole('menuitem', { name: new RegExp(`^${escape(item.label)}\\s*${item.hotkey ? `(${escape(item.hotkey)})?` : ''}$`) });
        if (item.disabled) {
          expect(entry.getAttribute('aria-disabled')).toBe('true');
          fireEvent.keyDown(entry, { key: 'Escape' });
          continue;
        }
        fireEvent.click(entry);
        expect(execute).toHaveBeenLastCalledWith(item.commandId, item.args, 'menu', {});
      }
    });
  }

  it('JOB row menus keep their labels, reasons and order', () => {
    const r = registry();
    expect(r.menuItems('row/job', job).map((i) => [i.label, i.hotkey, i.disabled])).toEqual([
      ['View Job Result', null, false],
      ['Job Summary Report', 'Shift+S', false],
      ['Open in a New Pane Beside', 'O', false],
      ['Open Simulation', 'S', false],
      ['Publish Job Result', 'P', false],
      ['Cancel', 'C', true],
      ['Delete', 'Del', false],
    ]);
    const running = r.menuItems('row/job', { ...job, job_status: 'running', simulation: null, action: { vid: 'A1' } });
    expect(running.find((i) => i.commandId === 'jobs.publish')?.reason).toBe('Only finished jobs can be published.');
    expect(running.find((i) => i.commandId === 'jobs.openSimulation')?.label).toBe('Open Action');
    expect(r.menuItems('row/job-action', { ...action, suspect_events: 0 }).find((i) => i.label === 'Suspicious Events')?.reason).toBe('No suspicious events.');
  });

  it('the library detail toolbar, the Queue menu and a bulk token row keep their labels, hotkeys, args and reasons', () => {
    const r = registry('actions');
    expect(r.menuItems('toolbar/action-detail', actionDetail).map((i) => [i.label, i.hotkey, i.args, i.style ?? null])).toEqual([
      ['Preview', 'P', { id: 41 }, 'primary'],
      ['Run', 'X', { id: 41 }, null],
      ['Edit', 'E', { id: 41 }, null],
      ['Clone', 'C', { id: 41 }, null],
      ['Copy VID', 'Y', { id: 41 }, null],
    ]);
    expect(r.menuItems('toolbar/action-detail', { ...actionDetail, vendor: true }).map((i) => i.label)).toEqual(['Preview', 'Run', 'Clone', 'Copy VID']);
    expect(r.menuItems('toolbar/action-detail', { ...actionDetail, userPermissions: { ...actionDetail.userPermissions, edit: false } }).map((i) => i.label)).toEqual(['Preview', 'Run', 'Copy VID']);
    expect(r.menuItems('menu/action-queue').map((i) => [i.label, i.args])).toEqual([
      ['Add all', { sim_type: 'sequence' }],
      ['Add all as Evaluation', { sim_type: 'eval' }],
    ]);
    expect(r.menuItems('row/bulk-token', bulkToken).map((i) => [i.label, i.disabled, i.reason, i.separatorBefore])).toEqual([
      ['Show Pending', true, 'No pending actors', false],
      ['Register Push', false, null, false],
      ['Download', false, null, false],
      ['Clear', false, null, true],
    ]);
    const expired = r.menuItems('row/bulk-token', { ...bulkToken, active_pending: 2, actions: ['pending', 'download', 'clear'] });
    expect(expired.map((i) => [i.label, i.reason])).toEqual([
      ['Show Pending', null],
      ['Register Push', 'The token has expired'],
      ['Download', null],
      ['Clear', null],
    ]);
  });

  it("the palette, menus and the Scripts pane's buttons show the same hotkey for a command", () => {
    const r = registry('scripts');
    const stop = paneContexts.provide(scriptsPane, { id: 'standalone', kind: '*' }, {
      draft: () => ({ name: 'x', body: '', shared: false }), loadedId: () => null, mayDelete: () => false, running: () => false,
      execute: async () => undefined, stop: () => undefined, showSaved: () => undefined, showDeleted: () => undefined,
    });
    try {
      for (const id of ['scripts.saveCurrent', 'scripts.runCurrent', 'scripts.dryRunCurrent']) {
        const first = hotkeysOf(r.get(id)!)[0]!;
        const { unmount } = render(<CommandButton command={id} registry={r} />);
        expect(screen.getByRole('button').getAttribute('title'), id).toBe(`${r.get(id)!.title} (${hotkeyLabel(first).join('+')})`);
        unmount();
      }
    } finally {
      stop();
    }
    for (const menu of Object.keys(MENUS) as MenuId[]) {
      for (const item of r.menuItems(menu, MENU_ARGS[menu])) {
        const c = r.get(item.commandId)!;
        const first = hotkeysOf(c)[0];
        // The palette renders hotkeyLabel's parts; a menu, a toolbar or a button's tooltip joins the same parts.
        expect(item.hotkey, c.id).toBe(first ? hotkeyLabel(first).join('+') : null);
        if (first) expect(hotkeyText(first)).toBe(item.hotkey);
      }
    }
  });
});
