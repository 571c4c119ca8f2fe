// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { LIBRARY_MESSAGES } from '@/api/contracts/library';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { parseScript } from '@/commands/script/parse';
import { runScript } from '@/commands/script/run';
import type { CommandContext } from '@/commands/types';
import { clearToasts, toastStore } from '@/ui/toasts';
import { workbenchCommands } from '@/panes/workbench-commands';
import { libraryCommands } from './commands';

const undoCommand = () => workbenchCommands().find((c) => c.id === 'workbench.undo')!;
import { clearSelection, libraryStore } from './store';

const server = useMswServer();

function registryAs(role: Role, confirm: (m: string) => Promise<boolean> = async () => true) {
  const openUrl = vi.fn();
  const ctx: CommandContext = {
    ...emptyContext(),
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
    confirm,
    dock: { openUrl, focusNext: vi.fn(), moveActive: vi.fn(), closeActive: vi.fn(), resetLayout: vi.fn() },
    activePane: { kind: 'actions', params: { vid: 'A201-807' } },
  };
  const registry = new CommandRegistry(() => ctx);
  registry.registerAll(libraryCommands);
  return { registry, openUrl, ctx };
}

beforeEach(() => {
  libraryStore.current = { id: 2, vid: 'A201-807', name: 'ProcDump', action_type: 'host_cli', approved: false, require_protected: false, vendor: false };
  libraryStore.seenVersions = { 2: 3 };
});
afterEach(() => {
  clearSelection();
  clearToasts();
});

describe('library commands', () => {
  it('ACT-085 hides approval commands from an operator and offers them to an approver', () => {
    const operator = registryAs('operator').registry;
    expect(operator.visible().map((c) => c.id)).not.toContain('actions.approveAnywhere');
    expect(operator.visible().map((c) => c.id)).not.toContain('actions.reject');
    const approver = registryAs('approver').registry;
    expect(approver.visible().map((c) => c.id)).toEqual(expect.arrayContaining(['actions.approveAnywhere', 'actions.approveProtected', 'actions.approveCloud', 'actions.reject']));
  });

  it('ACT-103 approves the selected Action with required= and the version the user reviewed', async () => {
    const seen: string[] = [];
    server.use(
      http.put(`${API}/manage_sims/actions/2/approve`, ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ data: { id: 2, vid: 'A201-807', approved: true } });
      }),
    );
    const { registry } = registryAs('approver');
    await registry.execute('actions.approveProtected', undefined, 'button');
    expect(seen).toEqual(['?required=true&version=3']);
    expect(toastStore.toasts.at(-1)?.message).toBe('A201-807 was approved and requires a Protected Theater.');
  });

  it('ACT-058 issue 21 the approve hotkey holds the approval back 10 s with an Undo: nothing is sent before; Undo sends nothing at all; a button approves at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const seen: string[] = [];
      server.use(
        http.put(`${API}/manage_sims/actions/2/approve`, ({ request }) => {
          seen.push(new URL(request.url).search);
          return HttpResponse.json({ data: { id: 2, vid: 'A201-807', approved: true } });
        }),
      );
      const asked: unknown[] = [];
      const { registry } = registryAs('approver', async (m) => {
        asked.push(m);
        return true;
      });
      registry.register(undoCommand());
      // Undone: the toast names the Action and the mode; Undo (the workbench.undo command) leaves it pending.
      const undone = registry.execute('actions.approveAnywhere', undefined, 'hotkey');
      await vi.waitFor(() => expect(toastStore.toasts.map((t) => t.message)).toContain('A201-807 will be approved to run anywhere.'));
      expect(toastStore.toasts.find((t) => t.action)?.action).toEqual({ commandId: 'workbench.undo', label: 'Undo' });
      await registry.execute('workbench.undo', undefined, 'hotkey');
      expect(await undone).toEqual({ id: 2, approved: false });
      expect(toastStore.toasts.map((t) => t.message)).toEqual(['Approving A201-807 was undone: it stays pending.']);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(seen).toEqual([]);
      // Not undone: sent when the 10 s are over, not before, with the version reviewed when the key was pressed.
      const approved = registry.execute('actions.approveAnywhere', undefined, 'hotkey');
      await vi.waitFor(() => expect(toastStore.toasts.map((t) => t.message)).toContain('A201-807 will be approved to run anywhere.'));
      libraryStore.seenVersions = { 2: 4 };
      await vi.advanceTimersByTimeAsync(9_900);
      expect(seen).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      expect(await approved).toEqual({ id: 2, approved: true });
      expect(seen).toEqual(['?required=false&version=3']);
      expect(toastStore.toasts.at(-1)?.message).toBe('A201-807 was approved to run anywhere.');
      // A button (the detail's, the palette's) approves at once; nothing asks.
      await registry.execute('actions.approveAnywhere', undefined, 'button');
      expect(seen).toHaveLength(2);
      expect(asked).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('actions.approve vid=… mode=… approves the Action of that VID in that mode, as the script example writes it', async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${API}/manage_sims/v2/actions/detail.json`, ({ request }) => {
        const vid = new URL(request.url).searchParams.get('vid');
        if (vid !== 'A104-223') return HttpResponse.json({ error: `No Action has the VID ${vid}.` }, { status: 404 });
        return HttpResponse.json({ action: { id: 7, vid: 'A104-223', action_type: 'host_cli', vendor: true } });
      }),
      http.get(`${API}/library/actions.json`, () =>
        HttpResponse.json({ data: { preview_props: { id: 7, vid: 'A104-223', action_type: 'host_cli', vendor: true, version: 4 } } }),
      ),
      http.put(`${API}/manage_sims/actions/7/approve`, ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ data: { id: 7, vid: 'A104-223', approved: true } });
      }),
    );
    const { registry } = registryAs('approver');
    const result = await runScript(
      registry,
      parseScript('actions.approve vid=A104-223 mode=anywhere\nactions.approve vid=A104-223 mode=protected\nactions.approve vid=A104-223 mode=cloud\nactions.approve vid=A999-000 mode=anywhere\nactions.approve vid=A104-223 mode=everywhere'),
      { continueOnError: true },
    );
    expect(result.steps.map((s) => [s.status, s.error ?? s.result])).toEqual([
      ['ok', '{"id":7,"approved":true}'],
      ['ok', '{"id":7,"approved":true}'],
      ['failed', 'A104-223 is not a cloud Action: use Approve and Allow Anywhere or Approve and Require Protected Theater.'],
      ['failed', 'No Action has the VID A999-000.'],
      ['failed', 'Approve Action…: mode must be anywhere, protected or cloud'],
    ]);
    expect(seen).toEqual(['?required=false&version=4', '?required=true&version=4']);
    expect(toastStore.toasts.map((t) => t.message)).toContain('A104-223 was approved to run anywhere.');
  });

  it('actions.approve is refused to an operator, and mode=cloud to an approver without cloud approval', async () => {
    const operator = registryAs('operator').registry;
    await expect(operator.execute('actions.approve', { vid: 'A104-223', mode: 'anywhere' })).rejects.toMatchObject({ kind: 'unavailable' });
    const { registry, ctx } = registryAs('approver');
    ctx.permissions = new Set([...ctx.permissions].filter((p) => p !== 'cloudApproval'));
    await expect(registry.execute('actions.approve', { vid: 'A1-1', mode: 'cloud' })).rejects.toThrow('"Approve Cloud Action" is not available to you here');
  });

  it('ACT-103 without a reviewed version, approves the version the director shows now (the director needs one)', async () => {
    libraryStore.seenVersions = {};
    const seen: string[] = [];
    server.use(
      http.get(`${API}/library/actions.json`, () =>
        HttpResponse.json({ data: { preview_props: { id: 2, vid: 'A201-807', action_type: 'host_cli', vendor: false, version: 7 } } }),
      ),
      http.put(`${API}/manage_sims/actions/2/approve`, ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ data: { id: 2, vid: 'A201-807', approved: true } });
      }),
    );
    const { registry } = registryAs('approver');
    await registry.execute('actions.approveAnywhere', undefined, 'test');
    expect(seen).toEqual(['?required=false&version=7']);
  });

  it('ACT-111 reports an approval failure from the response field error', async () => {
    server.use(http.put(`${API}/manage_sims/actions/2/approve`, () => HttpResponse.json({ error: LIBRARY_MESSAGES.staleVersion(3, 4) }, { status: 409 })));
    const { registry } = registryAs('approver');
    await expect(registry.execute('actions.approveAnywhere', undefined, 'test')).rejects.toThrow(LIBRARY_MESSAGES.staleVersion(3, 4));
  });

  it("ACT-059 asks 'Are you sure you want to reject this Action?', deletes, and returns to the list with the selection cleared", async () => {
    const confirm = vi.fn(async () => true);
    let deleted = false;
    server.use(
      http.delete(`${API}/manage_sims/actions/2.json`, () => {
        deleted = true;
        return HttpResponse.json({ data: { id: 2, vid: 'A201-807', removed_from: [], deleted: true } });
      }),
    );
    const { registry, openUrl } = registryAs('approver', confirm);
    await registry.execute('actions.reject', undefined, 'button');
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to reject this Action?', { confirmLabel: 'Reject Action', cancelLabel: 'Keep Action' });
    expect(deleted).toBe(true);
    expect(openUrl).toHaveBeenCalledWith('/manage_sims/actions');
    expect(libraryStore.current).toBeNull();
  });

  it('ACT-111 does nothing when the rejection is cancelled, and reports a failure from the response field base', async () => {
    const { registry } = registryAs('approver', async () => false);
    expect(await registry.execute('actions.reject', undefined, 'test')).toEqual({ cancelled: true });
    server.use(http.delete(`${API}/manage_sims/actions/2.json`, () => HttpResponse.json({ error: 'x', base: 'Only Actions awaiting approval can be rejected.' }, { status: 409 })));
    const again = registryAs('approver').registry;
    await expect(again.execute('actions.reject', undefined, 'test')).rejects.toThrow('Only Actions awaiting approval can be rejected.');
  });

  it('refuses the cloud approval for an endpoint Action, and edits cloud Actions at their cloud route', async () => {
    const { registry, openUrl } = registryAs('approver');
    await expect(registry.execute('actions.approveCloud', undefined, 'test')).rejects.toThrow(/is not a cloud Action/);
    libraryStore.current = { id: 64, vid: 'A250-866', name: 'S3', action_type: 'cloud', approved: true, require_protected: false, vendor: false };
    await registry.execute('actions.edit', undefined, 'test');
    expect(openUrl).toHaveBeenLastCalledWith('/manage_sims/actions/cloud_action/64/edit');
    await registry.execute('actions.clone', { id: 64 }, 'test');
    expect(openUrl).toHaveBeenLastCalledWith('/manage_sims/actions/64/clone');
    await registry.execute('actions.viewRuns', undefined, 'test');
    expect(openUrl).toHaveBeenLastCalledWith('/jobs?vid=A250-866');
    libraryStore.current = { id: 9, vid: 'A101-1', name: 'Vendor', action_type: 'dns', approved: true, require_protected: false, vendor: true };
    await expect(registry.execute('actions.edit', undefined, 'test')).rejects.toThrow(/vendor content/);
  });

  it('JOB-090 the export fetches every page of the legacy list, waiting 5 s after a 204', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const pages: string[] = [];
    let calls = 0;
    server.use(
      http.get(`${API}/manage_sims/library_actions_list.json`, ({ request }) => {
        calls++;
        if (calls === 1) return new HttpResponse(null, { status: 204 });
        const page = Number(new URL(request.url).searchParams.get('page'));
        pages.push(new URL(request.url).search);
        return HttpResponse.json({ data: [{ id: page, vid: `A000-${page}`, name: `n${page}`, action_type: 'dns', approved: true, tags: [], last_run: null, total_runs: 0, updated_at: '' }], meta: { total_count: 2, total_pages: 2, page, size: 1000 } });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const { registry } = registryAs('viewer');
    const done = registry.execute<{ count: number }>('actions.exportCsv', undefined, 'test');
    await vi.advanceTimersByTimeAsync(5000);
    expect(await done).toEqual({ count: 2 });
    expect(pages).toEqual(['?page=1&size=1000', '?page=2&size=1000']);
    vi.useRealTimers();
  });
});
