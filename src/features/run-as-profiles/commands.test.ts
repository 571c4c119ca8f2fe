import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { clearToasts, toastStore } from '@/ui/toasts';
import { runAsProfilesCommands } from './commands';
import { profilesStore, rememberProfiles } from './store';

const server = useMswServer();
const ROWS = [
  { id: 3, friendly_name: 'Backup operator', username: 'backup', has_secret: true, action_count: 0, created_at: '', updated_at: '' },
  { id: 7, friendly_name: 'Web admin', username: 'www', has_secret: false, action_count: 2, created_at: '', updated_at: '' },
];

function registry(role: Role, confirm = true) {
  const r = new CommandRegistry(() => ({
    ...emptyContext(),
    user: { id: 1, email: `${role}@example.com`, first_name: '', last_name: '', role, permissions: permissionsOf(role) },
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
    confirm: async () => confirm,
  }));
  r.registerAll(runAsProfilesCommands);
  return r;
}

beforeEach(() => {
  clearToasts();
  profilesStore.selectedId = null;
  profilesStore.form = null;
  rememberProfiles(ROWS);
});

describe('run-as user profile commands', () => {
  it('JOB-005 are offered to actors.manage only; the profile argument is a pick list of friendly names', () => {
    expect(registry('operator').visible().map((c) => c.id)).toEqual([]);
    const edit = registry('admin').visible().find((c) => c.id === 'runAs.edit')!;
    const field = (edit.args!.describe() as unknown as { fields: Record<string, { oneOf?: unknown[] }> }).fields.profile!;
    expect(field.oneOf?.filter(Boolean)).toEqual(['Backup operator', 'Web admin']);
  });

  it('creates with the values given and selects the new profile; bad values are refused before any call', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/action_user_profiles.json`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ data: { ...ROWS[0], id: 9, friendly_name: 'Svc', username: 'svc' } }, { status: 201 });
      }),
    );
    const r = registry('admin');
    await expect(r.execute('runAs.create', { friendly_name: 'Svc', username: 'has space' }, 'test')).rejects.toThrow('Username must be an account name');
    const row = await r.execute('runAs.create', { friendly_name: 'Svc', username: 'svc', secret: 'pw' }, 'test');
    expect(sent).toEqual([{ friendly_name: 'Svc', username: 'svc', secret: 'pw' }]);
    expect(row).toMatchObject({ id: 9 });
    expect(profilesStore.selectedId).toBe(9);
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['Run-as user profile Svc (svc) was added.']);
  });

  it('deletes the profile named (or the selected one) after the confirmation, and nothing when it is declined', async () => {
    const deleted: string[] = [];
    server.use(
      http.delete(`${API}/action_user_profiles/:id.json`, ({ params }) => {
        deleted.push(String(params.id));
        return HttpResponse.json({ id: Number(params.id), message: 'Run-as user profile Web admin was deleted.' });
      }),
    );
    expect(await registry('admin', false).execute('runAs.delete', { profile: 'Web admin' }, 'test')).toBeNull();
    await registry('admin').execute('runAs.delete', { profile: 'Web admin' }, 'test');
    profilesStore.selectedId = 3;
    await registry('admin').execute('runAs.delete', {}, 'test');
    expect(deleted).toEqual(['7', '3']);
    await expect(registry('admin').execute('runAs.delete', { profile: 'Nobody' }, 'test')).rejects.toThrow('Choose one of the run-as user profiles');
  });
});
