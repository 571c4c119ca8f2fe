import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { clearToasts, toastStore } from '@/ui/toasts';
import { integrationsCommands } from './commands';

const server = useMswServer();

function registry(role: Role) {
  const r = new CommandRegistry(() => ({
    ...emptyContext(),
    user: { id: 1, email: `${role}@example.com`, first_name: '', last_name: '', role, permissions: permissionsOf(role) },
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
  }));
  r.registerAll(integrationsCommands);
  return r;
}

beforeEach(() => clearToasts());

describe('integrations commands', () => {
  it('Create integration… is offered to actors.manage only, with the kind as a pick list', () => {
    expect(registry('operator').visible().map((c) => c.id)).toEqual([]);
    const cmd = registry('admin').visible().find((c) => c.id === 'integrations.create')!;
    const kind = (cmd.args!.describe() as unknown as { fields: Record<string, { oneOf?: unknown[] }> }).fields.type!;
    expect(kind.oneOf).toEqual(['webhook', 'suricata_eve', 'nftables_ulogd_json']);
  });

  it('creates an nftables/ulogd JSON integration with the file it tails and says so; a file kind without a path is refused before any call', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/integrations.json`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return HttpResponse.json({ id: 4, brand_name: 'nftables/ulogd JSON', remote: false, host: '', logo_path: '', enabled: true, created_at: '2026-11-25T00:00:00.000Z', ...body }, { status: 201 });
      }),
    );
    const r = registry('admin');
    await expect(r.execute('integrations.create', { name: 'Lab fw', type: 'nftables_ulogd_json' }, 'test')).rejects.toThrow('A file path is required for this kind');
    const row = await r.execute('integrations.create', { name: 'Lab fw', type: 'nftables_ulogd_json', source_path: '/run/vigil-lab/x/ulogd.json' }, 'test');
    expect(sent).toEqual([{ name: 'Lab fw', type: 'nftables_ulogd_json', source_path: '/run/vigil-lab/x/ulogd.json' }]);
    expect(row).toMatchObject({ id: 4, type: 'nftables_ulogd_json' });
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['Integration Lab fw (nftables/ulogd JSON) created; the director reads /run/vigil-lab/x/ulogd.json.']);
  });
});
