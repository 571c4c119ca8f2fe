// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { clearToasts, toastStore } from '@/ui/toasts';
import { CLEAR_CONFIRM, actorsCommands } from './commands';
import { BULK_REFRESH_MS } from '@/api/contracts/actors';
import { actorsStore, bulkRefetchInterval, startPolling } from './store';

const server = useMswServer();
let confirm: ReturnType<typeof vi.fn<(m: string) => Promise<boolean>>>;

function registry(role: Role) {
  const r = new CommandRegistry(() => ({
    ...emptyContext(),
    user: { id: 1, email: `${role}@example.com`, first_name: '', last_name: '', role, permissions: permissionsOf(role) },
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
    confirm,
  }));
  r.registerAll(actorsCommands);
  return r;
}

beforeEach(() => {
  clearToasts();
  confirm = vi.fn(async () => true);
  Object.assign(actorsStore, { selectedId: null, expandedId: null, installerFor: null, registerPushFor: null, createOpen: false, created: null });
  startPolling();
});

describe('actors commands', () => {
  it('MON-122 the table header commands are privileged: only actors.manage may create and clear; every signed-in user may download the CSV', () => {
    const ids = (role: Role) => registry(role).visible().map((c) => c.id).sort();
    expect(ids('viewer')).toEqual(['actors.downloadTokenCsv', 'actors.registerPush', 'actors.resumeRefresh', 'actors.showInstaller', 'actors.togglePending']);
    expect(ids('admin')).toEqual(['actors.clearPending', 'actors.clearToken', 'actors.createToken', 'actors.downloadTokenCsv', 'actors.registerPush', 'actors.resumeRefresh', 'actors.showInstaller', 'actors.togglePending']);
  });

  it('MON-185 the tables stop refreshing at the re-poll time limit (60 minutes) until actors.resumeRefresh', async () => {
    const t0 = Date.parse('2026-11-27T10:00:00Z');
    startPolling(t0);
    expect(bulkRefetchInterval(t0 + 59 * 60_000)).toBe(BULK_REFRESH_MS);
    actorsStore.createOpen = true;
    expect(bulkRefetchInterval(t0 + 59 * 60_000)).toBe(false);
    actorsStore.createOpen = false;
    expect(actorsStore.pollingStopped).toBe(false);
    const r = registry('viewer');
    await expect(r.execute('actors.resumeRefresh', {}, 'test')).rejects.toThrow('The Actors pane is refreshing');
    expect(bulkRefetchInterval(t0 + 60 * 60_000)).toBe(false);
    expect(actorsStore.pollingStopped).toBe(true);
    // Stopped stays stopped, whatever the clock says, until the user resumes.
    expect(bulkRefetchInterval(t0)).toBe(false);
    await expect(r.execute('actors.resumeRefresh', {}, 'test')).resolves.toEqual({ resumed: true });
    expect(actorsStore.pollingStopped).toBe(false);
    expect(Date.now() - actorsStore.pollingSince).toBeLessThan(60_000);
    expect(bulkRefetchInterval()).toBe(BULK_REFRESH_MS);
  });

  it('MON-135 Clear token asks "Are you sure?"; No sends nothing, Yes clears the selected token and says so', async () => {
    const calls: string[] = [];
    server.use(http.delete(`${API}/delete_bulk_token/:id`, ({ params }) => (calls.push(String(params.id)), HttpResponse.json({ id: Number(params.id), message: 'Bulk token Lab was cleared.' }))));
    const r = registry('admin');
    await expect(r.execute('actors.clearToken', {}, 'test')).rejects.toThrow('Select a bulk token in the Actors pane first, or give its id.');
    actorsStore.selectedId = 7;
    actorsStore.expandedId = 7;
    confirm.mockResolvedValueOnce(false);
    expect(await r.execute('actors.clearToken', {}, 'test')).toBeNull();
    expect(confirm).toHaveBeenCalledWith(CLEAR_CONFIRM, { confirmLabel: 'Clear Token', cancelLabel: 'Keep Token' });
    expect(CLEAR_CONFIRM).toBe('Are you sure?');
    expect(calls).toEqual([]);
    expect(await r.execute('actors.clearToken', {}, 'test')).toEqual({ id: 7, message: 'Bulk token Lab was cleared.' });
    expect(calls).toEqual(['7']);
    expect(actorsStore.selectedId).toBeNull();
    expect(actorsStore.expandedId).toBeNull();
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['Bulk token Lab was cleared.']);
  });

  it('MON-154 Clear pending actor asks first and reports the director\'s refusal', async () => {
    server.use(http.delete(`${API}/nodes/:id/destroy_pending.js`, () => HttpResponse.json({ error: 'Actor a is not pending.' }, { status: 409 })));
    await expect(registry('admin').execute('actors.clearPending', { id: 4 }, 'test')).rejects.toThrow('Actor a is not pending.');
    expect(confirm).toHaveBeenCalledWith('Are you sure?', { confirmLabel: 'Clear Pending Actor', cancelLabel: 'Keep Pending Actor' });
  });

  it('without a workbench, Create bulk token creates at once and returns the secret; Download token CSV returns the text', async () => {
    let body: unknown;
    server.use(
      http.post(`${API}/bulk_tokens.json`, async ({ request }) => ((body = await request.json()), HttpResponse.json({ id: 3, token: 'vbt_secret', expires_at: '2026-11-25T00:00:00Z' }))),
      http.get(`${API}/csv_bulk_token/3`, () => new HttpResponse('Token Id\r\n3\r\n', { headers: { 'content-type': 'text/csv' } })),
    );
    const r = registry('admin');
    expect(await r.execute('actors.createToken', { name: 'Lab', hours: 4 }, 'test')).toEqual({ id: 3, token: 'vbt_secret', expires_at: '2026-11-25T00:00:00Z' });
    expect(body).toEqual({ name: 'Lab', hours: 4 });
    expect(actorsStore.selectedId).toBe(3);
    await expect(r.execute('actors.createToken', { hours: 0 }, 'test')).rejects.toThrow();
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    expect(await r.execute('actors.downloadTokenCsv', {}, 'test')).toEqual({ filename: 'bulk-token-3.csv', csv: 'Token Id\r\n3\r\n' });
    expect(clicked).toEqual(['bulk-token-3.csv']);
    click.mockRestore();
  });
});
