/**
 * Issue 20's integrations menu calls (GET /integrations.json?allow_msi=1&include_msi=1, GET
 * /integrations/new.js, POST /integrations.json) and the site banner (/settings/site_banner.json):
 * permissions by role, CSRF, bad input answered 4xx with a message, real persistence.
 */
import { describe, expect, it } from 'vitest';
import type { IntegrationNewForm, IntegrationsAnswer } from '@/api/contracts/integrations';
import type { SiteBanner } from '@/api/contracts/site-banner';
import { FileSources } from '../../server/integrations/file-sources';
import { useTestServer } from './helpers';

const t = useTestServer();
const [admin, operator, viewer] = [t.session('admin'), t.session('operator'), t.session('viewer')];
const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;
const MENU = '/integrations.json?allow_msi=1&include_msi=1';

describe('integrations menu', () => {
  it('JOB-029 JOB-039 JOB-089 lists the integrations to add (name, logo, versions) with the service state; stopped until the engine starts it, running after', async () => {
    const res = await t.call('GET', MENU, { as: viewer });
    expect(res.statusCode).toBe(200);
    const body = res.json<IntegrationsAnswer>();
    expect(body.available!.map((a) => a.type)).toEqual(['webhook', 'suricata_eve', 'nftables_ulogd_json']);
    expect(body.available![1]).toEqual({
      name: 'Suricata EVE JSON',
      brand_name: 'Suricata EVE JSON',
      logo_path: '/logos/suricata.svg',
      integration_template_id: 2,
      remote: false,
      type: 'suricata_eve',
      logo: '/logos/suricata.svg',
      versions: [{ version: '1', beta: false, deprecated: false, remote_only: false }],
    });
    expect(body).toMatchObject({ service: { status: 'stopped', message: null }, actions_disabled: false, saas: false });
    const files = new FileSources(t.db, () => 1000);
    files.start(60_000);
    try {
      expect((await t.call('GET', MENU, { as: viewer })).json<IntegrationsAnswer>().service).toEqual({ status: 'running', message: null });
    } finally {
      files.stop();
    }
    // Without the menu's flags: the configured integrations only.
    expect(Object.keys((await t.call('GET', '/integrations.json', { as: viewer })).json())).toEqual(['data']);
  });

  it('JOB-029 a deployment that disables actions or is SaaS says so', async () => {
    const other = await t.buildOtherApp({ actionsDisabled: true, saas: true });
    const s = await t.signIn('viewer', other);
    const body = (await t.call('GET', MENU, { as: s, app: other })).json<IntegrationsAnswer>();
    expect(body).toMatchObject({ actions_disabled: true, saas: true });
  });

  it('JOB-089 refuses a malformed query with 400; signed out is 401', async () => {
    const res = await t.call('GET', '/integrations.json?allow_msi=yes', { as: viewer });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toContain('allow_msi must be 0 or 1');
    expect((await t.call('GET', '/integrations.json?bogus=1', { as: viewer })).statusCode).toBe(400);
    expect((await t.call('GET', MENU)).statusCode).toBe(401);
  });

  it('JOB-029 /integrations/new.js answers the creation form of a kind; unknown kind 404, remote 400, missing type 400, operators 403', async () => {
    const res = await t.call('GET', '/integrations/new.js?integration_type=suricata_eve&remote=false', { as: admin });
    expect(res.statusCode).toBe(200);
    const form = res.json<IntegrationNewForm>();
    expect(form).toMatchObject({ integration_type: 'suricata_eve', remote: false, title: 'Add Suricata EVE JSON', logo_path: '/logos/suricata.svg' });
    expect(form.fields.map((f) => [f.name, f.required, f.value])).toEqual([
      ['name', true, 'Suricata EVE JSON'],
      ['source_path', true, ''],
    ]);
    const webhook = (await t.call('GET', '/integrations/new.js?integration_type=webhook&remote=false', { as: admin })).json<IntegrationNewForm>();
    expect(webhook.fields.map((f) => f.name)).toEqual(['name']);
    const unknown = await t.call('GET', '/integrations/new.js?integration_type=splunk&remote=false', { as: admin });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('There is no integration type splunk.');
    const remote = await t.call('GET', '/integrations/new.js?integration_type=webhook&remote=true', { as: admin });
    expect(remote.statusCode).toBe(400);
    expect(errorOf(remote)).toContain('cannot run remotely');
    expect((await t.call('GET', '/integrations/new.js?remote=false', { as: admin })).statusCode).toBe(400);
    const refused = await t.call('GET', '/integrations/new.js?integration_type=webhook', { as: operator });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toContain('actors.manage');
  });

  it('JOB-029 creating from the form stores the row with its logo; the next form proposes a new name; events=1 counts its events; CSRF and permission enforced', async () => {
    const noCsrf = await t.call('POST', '/integrations.json', { as: admin, csrf: false, body: { name: 'EVE', type: 'suricata_eve', source_path: '/var/log/suricata/eve.json' } });
    expect(noCsrf.statusCode).toBe(403);
    expect((await t.call('POST', '/integrations.json', { as: operator, body: { name: 'EVE', type: 'webhook' } })).statusCode).toBe(403);
    const bad = await t.call('POST', '/integrations.json', { as: admin, body: { name: 'EVE', type: 'suricata_eve', source_path: 'relative.json' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toContain('The file path must be absolute');
    const res = await t.call('POST', '/integrations.json', { as: admin, body: { name: 'Lab EVE', type: 'suricata_eve', source_path: '/var/log/suricata/eve.json' } });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ id: number }>().id;
    expect((await t.db.query('select name, logo_path, source_path from integrations where id = $1', [id]))[0]).toEqual({ name: 'Lab EVE', logo_path: '/logos/suricata.svg', source_path: '/var/log/suricata/eve.json' });
    const next = (await t.call('GET', '/integrations/new.js?integration_type=suricata_eve&remote=false', { as: admin })).json<IntegrationNewForm>();
    expect(next.fields[0]!.value).toBe('Suricata EVE JSON 2');
    await t.db.query(`insert into integration_events (integration_id, occurred_at, description, raw_event) values ($1, now(), 'ET SCAN', '{}')`, [id]);
    const listed = (await t.call('GET', `${MENU}&events=1`, { as: viewer })).json<IntegrationsAnswer>().data.find((r) => r.id === id)!;
    expect(listed).toMatchObject({ name: 'Lab EVE', events_last_day: 1, last_event_at: expect.any(String) });
  });
});

describe('site banner', () => {
  it('MON-027 MON-029 MON-114 an administrator sets the banner text and colour; everyone signed in reads it', async () => {
    expect((await t.call('GET', '/settings/site_banner.json', { as: viewer })).json<SiteBanner>()).toEqual({ enabled: false, text: '', color: '#B45309' });
    const res = await t.call('PUT', '/settings/site_banner.json', { as: admin, body: { enabled: true, text: 'Maintenance window tonight 22:00 UTC', color: '#ffc107' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: true, text: 'Maintenance window tonight 22:00 UTC', color: '#FFC107' });
    expect((await t.call('GET', '/settings/site_banner.json', { as: viewer })).json()).toEqual({ enabled: true, text: 'Maintenance window tonight 22:00 UTC', color: '#FFC107' });
  });

  it('MON-114 refuses a bad colour with the spec text, an empty one with "Please select a color"; operators 403; CSRF required; signed out 401', async () => {
    const bad = await t.call('PUT', '/settings/site_banner.json', { as: admin, body: { enabled: true, text: 'x', color: 'red' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toContain('Invalid format. Use example: #FFFFFF');
    const empty = await t.call('PUT', '/settings/site_banner.json', { as: admin, body: { enabled: true, text: 'x', color: '' } });
    expect(errorOf(empty)).toContain('Please select a color');
    const noText = await t.call('PUT', '/settings/site_banner.json', { as: admin, body: { enabled: true, text: '  ', color: '#FFFFFF' } });
    expect(errorOf(noText)).toContain('A shown banner needs a text');
    expect((await t.call('PUT', '/settings/site_banner.json', { as: admin, body: { enabled: true, text: 'x', color: '#FFFFFF', extra: 1 } })).statusCode).toBe(400);
    expect((await t.call('PUT', '/settings/site_banner.json', { as: operator, body: { enabled: false, text: '', color: '#FFFFFF' } })).statusCode).toBe(403);
    expect((await t.call('PUT', '/settings/site_banner.json', { as: admin, csrf: false, body: { enabled: false, text: '', color: '#FFFFFF' } })).statusCode).toBe(403);
    expect((await t.call('GET', '/settings/site_banner.json')).statusCode).toBe(401);
  });
});
