/**
 * JOB-029's threat-intel integrations (/threat_intel_integrations/new.js?integration_type={name}) and
 * Vigil's calls around them (docs/api.md, "Threat-intel sources"): permissions by role, CSRF, bad input
 * answered 4xx with a message, and the API key never answered and stored encrypted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ThreatIntelAnswer, ThreatIntelNewForm, ThreatIntelSource } from '@/api/contracts/threat-intel';
import { open, secretKey } from '../../server/admin/secret-box';
import { startTestServer, type Session, type TestServer } from './helpers';

const KEY = 'test key for threat-intel keys';
let t: TestServer;
let admin: Session;
let operator: Session;
let viewer: Session;
beforeAll(async () => {
  vi.stubEnv('VIGIL_SECRET_KEY', KEY);
  t = await startTestServer();
  [admin, operator, viewer] = [await t.signIn('admin'), await t.signIn('operator'), await t.signIn('viewer')];
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;
const MISP = { name: 'Corp MISP', kind: 'misp', url: 'https://misp.corp.example', api_key: 'misp-auth-key-0123456789' };

describe('threat-intel sources', () => {
  it('JOB-029 /threat_intel_integrations/new.js answers the modal of a kind; unknown 404, missing 400, operators 403', async () => {
    const res = await t.call('GET', '/threat_intel_integrations/new.js?integration_type=misp', { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ThreatIntelNewForm>()).toMatchObject({ integration_type: 'misp', title: 'Add MISP', name: 'MISP', logo_path: '/logos/misp.svg', api_key_required: true });
    const taxii = (await t.call('GET', '/threat_intel_integrations/new.js?integration_type=taxii21', { as: admin })).json<ThreatIntelNewForm>();
    expect(taxii).toMatchObject({ title: 'Add STIX/TAXII 2.1', api_key_required: false });
    const unknown = await t.call('GET', '/threat_intel_integrations/new.js?integration_type=virustotal', { as: admin });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('There is no threat-intel integration type virustotal.');
    const missing = await t.call('GET', '/threat_intel_integrations/new.js', { as: admin });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing)).toBe('integration_type is required');
    expect((await t.call('GET', '/threat_intel_integrations/new.js?integration_type=misp&x=1', { as: admin })).statusCode).toBe(400);
    const refused = await t.call('GET', '/threat_intel_integrations/new.js?integration_type=misp', { as: operator });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toContain('actors.manage');
  });

  it('JOB-029 an admin adds a source: 201, the API key stored encrypted and never answered; the list offers the four kinds', async () => {
    const res = await t.call('POST', '/threat_intel_integrations.json', { as: admin, body: { ...MISP, name: ' Corp MISP ' } });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json<{ data: ThreatIntelSource }>();
    expect(data).toMatchObject({ name: 'Corp MISP', kind: 'misp', brand_name: 'MISP', url: MISP.url, enabled: true, has_api_key: true });
    expect(Object.keys(data).sort()).toEqual(['brand_name', 'created_at', 'enabled', 'has_api_key', 'id', 'kind', 'logo_path', 'name', 'updated_at', 'url']);
    expect(res.body).not.toContain(MISP.api_key);
    const [row] = await t.db.query<{ api_key_ciphertext: string }>('select api_key_ciphertext from threat_intel_integrations where id = $1', [data.id]);
    expect(row?.api_key_ciphertext).toMatch(/^v1:/);
    expect(row?.api_key_ciphertext).not.toContain('misp-auth');
    expect(open(secretKey('/unused', { VIGIL_SECRET_KEY: KEY }), row!.api_key_ciphertext)).toBe(MISP.api_key);

    const list = await t.call('GET', '/threat_intel_integrations.json', { as: viewer });
    expect(list.statusCode).toBe(200);
    const body = list.json<ThreatIntelAnswer>();
    expect(body.data.map((s) => s.name)).toContain('Corp MISP');
    expect(body.available.map((k) => k.type)).toEqual(['misp', 'opencti', 'taxii21', 'otx']);
    expect(list.body).not.toMatch(/misp-auth|api_key_ciphertext|v1:/);
    // The next MISP's proposed name is numbered.
    expect((await t.call('GET', '/threat_intel_integrations/new.js?integration_type=misp', { as: admin })).json<ThreatIntelNewForm>().name).toBe('MISP 2');
  });

  it('refuses bad input with 400 and a message, a taken name with 409', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Name is required'],
      [{ name: 'x', kind: 'virustotal', url: 'https://vt.example' }, 'Kind must be one of misp, opencti, taxii21, otx'],
      [{ name: 'x', kind: 'taxii21', url: 'ftp://taxii.example' }, 'URL must be an http:// or https:// address'],
      [{ name: 'x', kind: 'taxii21', url: 'not a url' }, 'URL must be an http:// or https:// address'],
      [{ name: 'x', kind: 'taxii21', url: 'https://u:p@taxii.example' }, 'URL must not carry a user name or password: put the key in API key'],
      [{ name: 'x', kind: 'otx', url: 'https://otx.alienvault.com' }, 'AlienVault OTX needs an API key'],
      [{ name: 'x', kind: 'taxii21', url: 'https://taxii.example', password: 'y' }, 'Unknown field: password'],
      [{ name: 'x', kind: 'taxii21', url: 'https://taxii.example', enabled: 'sometimes' }, 'enabled'],
    ];
    for (const [body, message] of cases) {
      const res = await t.call('POST', '/threat_intel_integrations.json', { as: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toContain(message);
    }
    const taken = await t.call('POST', '/threat_intel_integrations.json', { as: admin, body: { ...MISP, name: 'CORP MISP' } });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toBe('A threat-intel source named CORP MISP already exists.');
    const open_ = await t.call('POST', '/threat_intel_integrations.json', { as: admin, body: { name: 'Open TAXII', kind: 'taxii21', url: 'https://taxii.example/api1/collections/abc/', enabled: false } });
    expect(open_.statusCode, open_.body).toBe(201);
    expect(open_.json<{ data: ThreatIntelSource }>().data).toMatchObject({ has_api_key: false, enabled: false });
  });

  it('operators and viewers may list but not change (403); signed out is 401; a missing CSRF token is 403', async () => {
    for (const who of [operator, viewer]) {
      const res = await t.call('POST', '/threat_intel_integrations.json', { as: who, body: { ...MISP, name: 'Nope' } });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res)).toContain('actors.manage');
      expect((await t.call('GET', '/threat_intel_integrations.json', { as: who })).statusCode).toBe(200);
    }
    expect((await t.call('GET', '/threat_intel_integrations.json')).statusCode).toBe(401);
    const noCsrf = await t.call('POST', '/threat_intel_integrations.json', { as: admin, csrf: false, body: { ...MISP, name: 'Nope' } });
    expect(noCsrf.statusCode).toBe(403);
    expect(await t.db.query("select 1 from threat_intel_integrations where name = 'Nope'")).toHaveLength(0);
  });

  it('updates name, URL and enabled, replaces and clears the key; refuses removing a required key, an empty update and unknown ids; deletes', async () => {
    const { id } = (await t.call('POST', '/threat_intel_integrations.json', { as: admin, body: { name: 'Feed', kind: 'taxii21', url: 'https://feed.example/taxii2/' } })).json<{ data: ThreatIntelSource }>().data;
    const changed = await t.call('PATCH', `/threat_intel_integrations/${id}.json`, { as: admin, body: { name: 'Partner feed', enabled: false, api_key: 'taxii-token-1' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ data: ThreatIntelSource }>().data).toMatchObject({ name: 'Partner feed', enabled: false, has_api_key: true, url: 'https://feed.example/taxii2/' });
    expect(changed.body).not.toContain('taxii-token-1');
    const cleared = await t.call('PATCH', `/threat_intel_integrations/${id}.json`, { as: admin, body: { clear_api_key: true } });
    expect(cleared.json<{ data: ThreatIntelSource }>().data.has_api_key).toBe(false);

    const [misp] = (await t.call('GET', '/threat_intel_integrations.json', { as: admin })).json<ThreatIntelAnswer>().data.filter((s) => s.kind === 'misp');
    const keep = await t.call('PATCH', `/threat_intel_integrations/${misp!.id}.json`, { as: admin, body: { clear_api_key: true } });
    expect(keep.statusCode).toBe(400);
    expect(errorOf(keep)).toBe('MISP needs an API key: give a new one instead of removing it.');
    const nothing = await t.call('PATCH', `/threat_intel_integrations/${id}.json`, { as: admin, body: {} });
    expect(nothing.statusCode).toBe(400);
    expect(errorOf(nothing)).toBe('Nothing to change: give name, url, api_key, clear_api_key or enabled.');
    const badUrl = await t.call('PATCH', `/threat_intel_integrations/${id}.json`, { as: admin, body: { url: 'javascript:alert(1)' } });
    expect(badUrl.statusCode).toBe(400);
    const missing = await t.call('PATCH', '/threat_intel_integrations/999999.json', { as: admin, body: { name: 'x' } });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing)).toBe('Threat-intel source 999999 does not exist.');
    expect((await t.call('PATCH', '/threat_intel_integrations/abc.json', { as: admin, body: { name: 'x' } })).statusCode).toBe(400);
    expect((await t.call('DELETE', `/threat_intel_integrations/${id}.json`, { as: operator })).statusCode).toBe(403);

    const gone = await t.call('DELETE', `/threat_intel_integrations/${id}.json`, { as: admin });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ id, message: 'Threat-intel source Partner feed was deleted.' });
    expect((await t.call('DELETE', `/threat_intel_integrations/${id}.json`, { as: admin })).statusCode).toBe(404);
  });
});
