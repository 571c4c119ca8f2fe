import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { IntegrationsAnswer } from '@/api/contracts/integrations';
import { THREAT_INTEL_KINDS, type ThreatIntelSource } from '@/api/contracts/threat-intel';
import { permissionsOf } from '@/api/contracts/permissions';
import { CommandRegistry, commands, emptyContext } from '@/commands/registry';
import { clearToasts, flash, toastStore } from '@/ui/toasts';
import { integrationsCommands } from './commands';
import { IntegrationsPane } from './integrations-pane';
import { integrationsStore } from './store';

const server = useMswServer();
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const AVAILABLE = THREAT_INTEL_KINDS.map((k) => ({ type: k.type, name: k.label, logo_path: k.logo, api_key_required: k.keyRequired }));
const TAXII: ThreatIntelSource = {
  id: 5,
  name: 'Partner TAXII',
  kind: 'taxii21',
  brand_name: 'STIX/TAXII 2.1',
  logo_path: '/logos/taxii.svg',
  url: 'https://taxii.partner.example/api1/',
  enabled: true,
  has_api_key: true,
  created_at: '2026-11-20T08:00:00.000Z',
  updated_at: '2026-11-21T09:30:00.000Z',
};
const MENU: IntegrationsAnswer = { data: [], available: [], service: { status: 'running', message: null }, actions_disabled: false, saas: false };

let sources: ThreatIntelSource[];
const posted: unknown[] = [];
const patched: unknown[] = [];
const formUrls: string[] = [];
useCommandsAs(integrationsCommands);
beforeEach(() => {
  clearToasts();
  localStorage.clear();
  posted.length = 0;
  patched.length = 0;
  formUrls.length = 0;
  sources = [TAXII];
  Object.assign(integrationsStore, { threatIntelForm: null, selectedThreatIntelId: null, knownThreatIntel: [] });
  server.use(
    http.get(`${API}/integrations.json`, () => HttpResponse.json(MENU)),
    http.get(`${API}/integrations/dependency_actors.json`, () => HttpResponse.json({ data: [] })),
    http.get(`${API}/threat_intel_integrations.json`, () => HttpResponse.json({ data: sources, available: AVAILABLE })),
    http.get(`${API}/threat_intel_integrations/new.js`, ({ request }) => {
      formUrls.push(request.url);
      return HttpResponse.json({
        integration_type: 'misp',
        title: 'Add MISP',
        brand_name: 'MISP',
        logo_path: '/logos/misp.svg',
        description: "A MISP instance's REST API.",
        name: 'MISP',
        url_placeholder: 'https://misp.example.org',
        api_key_required: true,
      });
    }),
    http.post(`${API}/threat_intel_integrations.json`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      posted.push(body);
      const row = { ...TAXII, id: 9, name: String(body.name), kind: 'misp', brand_name: 'MISP', logo_path: '/logos/misp.svg', url: String(body.url), enabled: body.enabled !== false, has_api_key: !!body.api_key };
      sources = [...sources, row];
      return HttpResponse.json({ data: row }, { status: 201 });
    }),
    http.patch(`${API}/threat_intel_integrations/:id.json`, async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      patched.push({ id: Number(params.id), ...body });
      if (body.url === 'https://u:p@taxii.example') return HttpResponse.json({ error: 'URL must not carry a user name or password: put the key in API key' }, { status: 400 });
      sources = sources.map((s) => (s.id === Number(params.id) ? { ...s, ...(body as Partial<ThreatIntelSource>) } : s));
      return HttpResponse.json({ data: sources.find((s) => s.id === Number(params.id)) });
    }),
  );
});

describe('threat-intel sources', () => {
  it("JOB-029 the integrations menu offers the threat-intel kinds under 'Threat intel'; MISP's modal loads /threat_intel_integrations/new.js?integration_type=misp and adds the source with its key write-only", async () => {
    renderWithQueries(<IntegrationsPane />);
    const table = await screen.findByRole('table', { name: 'Threat-intel sources' });
    expect(await within(table).findByRole('cell', { name: 'Partner TAXII' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'Stored (encrypted)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Add Integration/ }));
    const section = await screen.findByRole('group', { name: 'Threat intel' });
    expect(within(section).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['MISP', 'OpenCTI', 'STIX/TAXII 2.1', 'AlienVault OTX']);
    await userEvent.click(within(section).getByRole('menuitem', { name: 'MISP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add MISP' });
    expect(new URL(formUrls[0]!).search).toBe('?integration_type=misp');
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('MISP');
    const key = within(dialog).getByLabelText('API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(key.autocomplete).toBe('new-password');
    await userEvent.type(within(dialog).getByLabelText('URL'), 'https://misp.corp.example');
    await userEvent.type(key, 'misp-key-1');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Enabled' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Source' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([{ kind: 'misp', name: 'MISP', url: 'https://misp.corp.example', api_key: 'misp-key-1', enabled: false }]);
    expect(toastStore.toasts.map((t) => t.message)).toContain('Threat-intel source MISP (MISP) added.');
    expect(await within(table).findByRole('cell', { name: 'https://misp.corp.example' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('misp-key-1');
  });

  it("editing sends only what changed, an empty key keeps the stored one, and a refused URL (checked with the director's schema, before any call) stays in the form with what was typed", async () => {
    commands.setErrorReporter((message) => flash('alert', message));
    try {
      renderWithQueries(<IntegrationsPane />);
      const table = await screen.findByRole('table', { name: 'Threat-intel sources' });
      await userEvent.click(await within(table).findByRole('cell', { name: 'Partner TAXII' }));
      await userEvent.click(within(screen.getByRole('toolbar', { name: 'Threat-intel sources' })).getByRole('button', { name: 'Edit Source' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Partner TAXII' });
      expect((within(dialog).getByLabelText('New API key (empty keeps the stored one)') as HTMLInputElement).value).toBe('');
      const url = within(dialog).getByLabelText('URL');
      await userEvent.clear(url);
      await userEvent.type(url, 'https://u:p@taxii.example');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save Source' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe('URL must not carry a user name or password: put the key in API key');
      expect(toastStore.toasts).toEqual([]);
      expect((within(dialog).getByLabelText('URL') as HTMLInputElement).value).toBe('https://u:p@taxii.example');
      await userEvent.clear(url);
      await userEvent.type(url, 'https://taxii.partner.example/api2/');
      await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Remove the stored API key' }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save Source' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // The same schema as the director's refused the URL before any call.
      expect(patched).toEqual([{ id: 5, url: 'https://taxii.partner.example/api2/', clear_api_key: true }]);
    } finally {
      commands.setErrorReporter(null);
    }
  });

  it('JOB-029 the commands are offered to actors.manage only; the source argument is a pick list', () => {
    const registry = (role: 'admin' | 'operator') => {
      const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissionsOf(role)) }));
      r.registerAll(integrationsCommands);
      return r.visible().map((c) => c.id).filter((id) => id.startsWith('threatIntel.'));
    };
    expect(registry('admin')).toEqual(['threatIntel.add', 'threatIntel.create', 'threatIntel.edit', 'threatIntel.delete']);
    expect(registry('operator')).toEqual([]);
  });
});
