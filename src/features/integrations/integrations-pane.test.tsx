import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { IntegrationTemplate, IntegrationsAnswer } from '@/api/contracts/integrations';
import { wrapErrorText } from '@/api/contracts/integrations';
import { commands } from '@/commands/registry';
import { clearToasts, flash, toastStore } from '@/ui/toasts';
import { getIntegrationsMenu } from './api';
import { integrationsCommands } from './commands';
import { IntegrationsPane } from './integrations-pane';
import { menuItems, serviceErrorMessage } from './menu-state';
import { integrationsStore } from './store';

const server = useMswServer();

// Headless UI anchors open menus with a ResizeObserver, which jsdom lacks.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const template = (type: string, name: string, flags: Partial<IntegrationTemplate['versions'][number]> = {}): IntegrationTemplate => ({
  name,
  brand_name: name,
  logo_path: `/logos/${type}.svg`,
  integration_template_id: 1,
  remote: false,
  type,
  logo: `/logos/${type}.svg`,
  versions: [{ version: '1', beta: false, deprecated: false, remote_only: false, ...flags }],
});
const AVAILABLE = [template('webhook', 'JSON webhook'), template('suricata_eve', 'Suricata EVE JSON', { beta: true }), template('remote_edr', 'Remote EDR', { remote_only: true, deprecated: true })];
const ROW = { id: 3, name: 'Lab webhook', brand_name: 'JSON webhook', type: 'webhook', remote: false, host: '', logo_path: '/logos/webhook.svg', enabled: true, source_path: null, created_at: '2026-11-25T00:00:00.000Z', events_last_day: 4, last_event_at: '2026-11-26T10:00:00.000Z' };

let answer: IntegrationsAnswer;
const listUrls: string[] = [];
useCommandsAs(integrationsCommands);
beforeEach(() => {
  clearToasts();
  localStorage.clear();
  listUrls.length = 0;
  integrationsStore.adding = null;
  integrationsStore.selectedId = null;
  answer = { data: [ROW], available: AVAILABLE, service: { status: 'running', message: null }, actions_disabled: false, saas: false };
  server.use(
    http.get(`${API}/integrations.json`, ({ request }) => {
      listUrls.push(request.url);
      return HttpResponse.json(answer);
    }),
    // The pane's second table (dependencies-table.test.tsx covers it).
    http.get(`${API}/integrations/dependency_actors.json`, () => HttpResponse.json({ data: [] })),
    // The threat-intel section and the menu's threat-intel kinds (threat-intel.test.tsx covers them).
    http.get(`${API}/threat_intel_integrations.json`, () => HttpResponse.json({ data: [], available: [] })),
  );
});

function renderPane() {
  renderWithQueries(<IntegrationsPane />);
}

/** The director's creation form of a Suricata EVE JSON integration (/integrations/new.js). */
const suricataForm = (pathPlaceholder: string) => ({
  integration_type: 'suricata_eve',
  remote: false,
  title: 'Add Suricata EVE JSON',
  brand_name: 'Suricata EVE JSON',
  logo_path: '/logos/suricata.svg',
  description: 'The director tails EVE JSON.',
  fields: [
    { name: 'name', label: 'Name', required: true, value: 'Suricata EVE JSON', placeholder: '', help: '' },
    { name: 'source_path', label: 'File the director tails', required: true, value: '', placeholder: pathPlaceholder, help: '' },
  ],
});

describe('the integrations menu', () => {
  it('JOB-029 JOB-039 JOB-089 lists the integrations to add with logo, name and version flags; choosing one loads its creation modal from /integrations/new.js and creating refreshes the table', async () => {
    const created: unknown[] = [];
    const formUrls: string[] = [];
    server.use(
      http.get(`${API}/integrations/new.js`, ({ request }) => {
        formUrls.push(request.url);
        return HttpResponse.json(suricataForm('/var/log/suricata/eve.json'));
      }),
      http.post(`${API}/integrations.json`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        created.push(body);
        answer = { ...answer, data: [...answer.data, { ...ROW, id: 9, name: String(body.name), type: 'suricata_eve', brand_name: 'Suricata EVE JSON', source_path: String(body.source_path) }] };
        return HttpResponse.json({ ...ROW, id: 9, ...body }, { status: 201 });
      }),
    );
    renderPane();
    expect(await screen.findByRole('cell', { name: 'Lab webhook' })).toBeTruthy();
    // The table asks with the events (counts per integration); the status poller asks for the menu's answer only.
    expect(new Set(listUrls.map((u) => new URL(u).search))).toEqual(new Set(['?allow_msi=1&include_msi=1&events=1', '?allow_msi=1&include_msi=1']));
    await userEvent.click(screen.getByRole('button', { name: /Add Integration/ }));
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['JSON webhookv1', 'Suricata EVE JSONv1Beta', 'Remote EDRv1DeprecatedRemote only']);
    expect(items[1]!.querySelector('img')!.getAttribute('src')).toBe('/logos/suricata_eve.svg');
    await userEvent.click(items[1]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add Suricata EVE JSON' });
    expect(new URL(formUrls[0]!).search).toBe('?integration_type=suricata_eve&remote=false');
    const path = within(dialog).getByLabelText('File the director tails');
    await userEvent.type(path, '/var/log/suricata/eve.json');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Integration' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(created).toEqual([{ type: 'suricata_eve', name: 'Suricata EVE JSON', source_path: '/var/log/suricata/eve.json' }]);
    expect(await screen.findByRole('cell', { name: '/var/log/suricata/eve.json' })).toBeTruthy();
    expect(toastStore.toasts.map((t) => t.message)).toContain('Integration Suricata EVE JSON (Suricata EVE JSON) created; the director reads /var/log/suricata/eve.json.');
  });

  it('a refused creation shows the director\'s message once, in the form (no toast repeats it), and keeps what the user typed', async () => {
    // As in the workbench: interactive command failures become toasts, so a form must not be one of them.
    commands.setErrorReporter((message) => flash('alert', message));
    server.use(
      http.get(`${API}/integrations/new.js`, () =>
        HttpResponse.json(suricataForm('')),
      ),
      http.post(`${API}/integrations.json`, () => HttpResponse.json({ error: 'Another integration already tails /var/log/eve.json' }, { status: 422 })),
    );
    try {
      renderPane();
      integrationsStore.adding = { type: 'suricata_eve', remote: false };
      const dialog = await screen.findByRole('dialog', { name: 'Add Suricata EVE JSON' });
      const name = within(dialog).getByLabelText(/^Name/);
      await userEvent.clear(name);
      await userEvent.type(name, 'Core sensor');
      await userEvent.type(within(dialog).getByLabelText(/File the director tails/), '/var/log/eve.json');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Add Integration' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe('Another integration already tails /var/log/eve.json');
      expect(screen.getAllByText('Another integration already tails /var/log/eve.json')).toHaveLength(1);
      expect(toastStore.toasts).toEqual([]);
      expect((within(dialog).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Core sensor');
      expect((within(dialog).getByLabelText(/File the director tails/) as HTMLInputElement).value).toBe('/var/log/eve.json');
    } finally {
      commands.setErrorReporter(null);
    }
  });

  it('JOB-029 the menu is disabled, with the reason, while the service is not running, is in error, or actions are disabled; SaaS hides remote-only integrations', async () => {
    answer = { ...answer, service: { status: 'stopped', message: null } };
    renderPane();
    const button = await screen.findByRole('button', { name: /Add Integration/ });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(button.getAttribute('title')).toBe('The integration service is not running.');
    expect(screen.getByRole('note').textContent).toBe('Adding integrations is unavailable: The integration service is not running.');
    await expect(commands.execute('integrations.add', { integration_type: 'webhook' }, 'test')).rejects.toThrow('The integration service is not running.');
    answer = { ...answer, service: { status: 'running', message: null }, actions_disabled: true };
    await expect(commands.execute('integrations.add', { integration_type: 'webhook' }, 'test')).rejects.toThrow('This deployment disables actions.');
    expect(menuItems({ available: AVAILABLE, saas: true }).map((t) => t.type)).toEqual(['webhook', 'suricata_eve']);
    expect(menuItems({ available: AVAILABLE, saas: false })).toHaveLength(3);
  });

  it("JOB-107 JOB-072 JOB-119 a service error: toast 'Integration Service Error' for 10 s with the user_msg, the error wrapped at 30 characters, and the details icon", async () => {
    answer = { ...answer, service: { status: 'error', message: JSON.stringify({ user_msg: 'Cannot read /var/log/suricata/eve.json: permission denied', code: 13 }) } };
    renderPane();
    await waitFor(() => expect(toastStore.toasts).toHaveLength(1));
    expect(toastStore.toasts[0]).toMatchObject({ kind: 'error', title: 'Integration Service Error', message: 'Cannot read /var/log/suricata/eve.json: permission denied', durationMs: 10000 });
    const status = await screen.findByRole('status', { name: 'Integration service' });
    await waitFor(() => expect(status.textContent).toContain('Cannot read'));
    expect([...status.querySelectorAll('span.block')].map((s) => s.textContent)).toEqual(wrapErrorText('Cannot read /var/log/suricata/eve.json: permission denied'));
    expect(wrapErrorText('Cannot read /var/log/suricata/eve.json: permission denied')).toEqual(['Cannot read', '/var/log/suricata/eve.json:', 'permission denied']);
    expect(within(status).getByRole('button', { name: 'Error connecting, click for details' })).toBeTruthy();
    expect(serviceErrorMessage(null)).toBe('An error ocurred loading the integration service.');
    expect(serviceErrorMessage('plain words')).toBe('plain words');
  });

  it("JOB-106 a failed list load reads 'Integrations: {server error}' or 'Integrations: API /integrations.json failed.'", async () => {
    server.use(http.get(`${API}/integrations.json`, () => HttpResponse.json({ error: 'allow_msi must be 0 or 1' }, { status: 400 })));
    await expect(getIntegrationsMenu()).rejects.toThrow('Integrations: allow_msi must be 0 or 1');
    server.use(http.get(`${API}/integrations.json`, () => HttpResponse.error()));
    await expect(getIntegrationsMenu()).rejects.toThrow(/^Integrations: API \/integrations\.json failed\.$/);
  });

  it('MON-130 the status line shows the status the service call answers', async () => {
    renderPane();
    const status = await screen.findByRole('status', { name: 'Integration service' });
    await waitFor(() => expect(status.textContent).toBe('Integration service: running'));
    expect(listUrls.some((u) => new URL(u).pathname.endsWith('/integrations.json'))).toBe(true);
    document.body.innerHTML = '';
    answer = { ...answer, service: { status: 'stopped', message: null } };
    renderPane();
    const stopped = await screen.findByRole('status', { name: 'Integration service' });
    await waitFor(() => expect(stopped.textContent).toBe('Integration service: not running'));
  });

  it('MON-019 the pane is a generic table: tabs All, Webhooks and File tails, quick find, the status line', async () => {
    answer = { ...answer, data: [ROW, { ...ROW, id: 4, name: 'Core EVE', type: 'suricata_eve', brand_name: 'Suricata EVE JSON', source_path: '/var/log/suricata/eve.json' }] };
    renderPane();
    await screen.findByRole('cell', { name: 'Core EVE' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Webhooks', 'File tails']);
    await userEvent.click(screen.getByRole('tab', { name: 'File tails' }));
    expect(screen.queryByRole('cell', { name: 'Lab webhook' })).toBeNull();
    expect(screen.getByRole('status', { name: 'Integrations status' }).textContent).toBe('Showing 1–1 of 1 (2 in all)');
  });
});
