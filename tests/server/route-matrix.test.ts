/**
 * The route matrix: generated from the routes the director registers (so a new route cannot escape),
 * every route is called as anonymous and as every role, without, with a wrong and with the right CSRF
 * token, and with a catalogue of hostile inputs. No answer may be a 5xx and none may hang.
 *
 * Sampling keeps it to a few thousand requests on one shared app: every route gets the full
 * role x CSRF grid with a plain body, and every route gets every hostile input once with the right token
 * (the role rotating over the roles, so each role meets each route and each input somewhere).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { startTestServer, type Session, type TestServer } from './helpers';
import type { Role } from '@/api/contracts/permissions';

type Who = 'anonymous' | Role;
const WHO: Who[] = ['anonymous', 'viewer', 'operator', 'approver', 'admin'];
const CSRF = ['none', 'wrong', 'right'] as const;
type Csrf = (typeof CSRF)[number];

interface Hostile {
  name: string;
  /** The value put in every path parameter. */
  param?: string;
  /** Appended to the URL. */
  query?: string;
  body?: string;
  contentType?: string;
}

const deepArray = '['.repeat(3000) + ']'.repeat(3000);
const deepObject = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
/** Common field names, all set to one hostile value, so a route meets it in whatever field it reads. */
const FIELDS = ['id', 'ids', 'name', 'email', 'password', 'role', 'file', 'path', 'text', 'description', 'script', 'action_ids', 'page', 'per_page', 'sort', 'q', 'query', 'title', 'value', 'actor_id', 'job_id', 'simulation_id', 'tags', 'filter', 'content'];
const everyField = (v: unknown) => JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, v])));

const HOSTILE: Hostile[] = [
  { name: 'invalid JSON', body: '{"name": ', contentType: 'application/json' },
  { name: 'deep array', body: deepArray, contentType: 'application/json' },
  { name: 'deep object', body: deepObject, contentType: 'application/json' },
  { name: 'deep value in every field', body: everyField(JSON.parse('['.repeat(200) + ']'.repeat(200))), contentType: 'application/json' },
  { name: 'huge string', body: everyField('x'.repeat(30_000)), contentType: 'application/json' },
  { name: 'body over the limit', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), contentType: 'application/json' },
  { name: 'id above the integer range', param: '99999999999999999999', query: 'id=99999999999999999999&page=99999999999999999999', body: everyField(99999999999999999999) },
  { name: 'id 1e308', param: '1e308', query: 'id=1e308&per_page=1e308', body: everyField(1e308) },
  { name: 'negative and fractional ids', param: '-1.5', query: 'id=-1.5', body: everyField(-1.5) },
  { name: 'NUL', param: 'a%00b', query: 'q=a%00b&name=%00', body: everyField('a\u0000b') },
  { name: 'traversal', param: '..%2F..%2F..%2Fetc%2Fpasswd', query: 'file=../../../../etc/passwd', body: everyField('../../../../etc/passwd') },
  { name: 'wrong types', param: 'true', query: 'ids[]=x&ids[]=y', body: everyField({ $ne: null }) },
  { name: 'array body', body: '[1,2,3]', contentType: 'application/json' },
  { name: 'multipart without boundary', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', contentType: 'multipart/form-data' },
  { name: 'form with NUL', body: 'name=a%00b&id=99999999999999999999&authenticity_token=', contentType: 'application/x-www-form-urlencoded' },
  { name: 'unknown content type', body: '<x/>', contentType: 'application/xml' },
];

let t: TestServer;
const sessions = new Map<Role, Session>();
const failures: string[] = [];
let requests = 0;
let staticDir = '';

beforeAll(async () => {
  // A stand-in SPA, so the HTML answers are exercised too (without one, GET / answers 503 "not built").
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-matrix-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<html><head><meta name="csrf-token" content="" /></head></html>');
  t = await startTestServer({ staticDir });
  for (const role of ['viewer', 'operator', 'approver', 'admin'] as const) sessions.set(role, await t.signIn(role));
}, 120_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

function fillParams(url: string, value: string): string {
  return url.replace(/:[A-Za-z_]+/g, value).replace(/\*$/, 'x');
}

/**
 * Roles whose session a call since its last check may have ended. Only a write the director accepted (a
 * sign-out, a user deleted, demoted or given a new password) or a sign-out route can end one, so a check
 * is owed only after such a call, not before every request.
 */
const unchecked = new Set<Role>();
function noteEnding(method: string, url: string, res: LightMyRequestResponse): void {
  if (res.statusCode < 400 && (method !== 'GET' || /sign_out/.test(url))) for (const role of sessions.keys()) unchecked.add(role);
}

/** A session, signed in again if an earlier call (sign-out) ended it. */
async function sessionOf(who: Who): Promise<Session | undefined> {
  if (who === 'anonymous') return undefined;
  const s = sessions.get(who)!;
  if (!unchecked.delete(who)) return s;
  const alive = await t.call('GET', '/users/verify_user_session', { as: s, headers: { 'x-requested-with': 'XMLHttpRequest', 'x-background-task': 'true' } });
  if (alive.statusCode === 200) return s;
  const fresh = await t.signIn(who);
  sessions.set(who, fresh);
  return fresh;
}

async function send(method: string, url: string, who: Who, csrf: Csrf, input: Hostile | undefined): Promise<LightMyRequestResponse> {
  const session = who === 'anonymous' ? undefined : sessions.get(who);
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
  if (session) headers.cookie = session.cookie;
  if (method !== 'GET' && csrf !== 'none') headers['x-csrf-token'] = csrf === 'right' && session ? session.csrfToken : 'wrong-token';
  const body = method === 'GET' ? undefined : (input?.body ?? '{}');
  if (body !== undefined) headers['content-type'] = input?.contentType ?? 'application/json';
  requests += 1;
  const answer = t.app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body } : {}) });
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${method} ${url} as ${who} (${input?.name ?? 'plain'})`)), 15_000);
  });
  try {
    const res = await Promise.race([answer, hang]);
    noteEnding(method, url, res);
    return res;
  } finally {
    clearTimeout(timer);
  }
}

function check(res: LightMyRequestResponse, what: string): void {
  if (res.statusCode >= 500) failures.push(`${res.statusCode} ${what}: ${res.body.slice(0, 200)}`);
}

/** Sign-out last: it ends the session the other calls use. */
function routes(): { method: string; url: string }[] {
  const all = t.app.routeList.filter((r) => r.method !== 'OPTIONS');
  return [...all.filter((r) => r.url !== '/users/sign_out'), ...all.filter((r) => r.url === '/users/sign_out')];
}

describe('route matrix', () => {
  it('covers the registered routes', () => {
    expect(routes().length).toBeGreaterThan(80);
  });

  it('SEC-MATRIX every route x every role x no/wrong/right CSRF: never a 5xx, anonymous and forged writes refused', async () => {
    const forgedAccepted: string[] = [];
    for (const { method, url } of routes()) {
      for (const who of WHO) {
        await sessionOf(who);
        for (const csrf of method === 'GET' ? (['right'] as const) : CSRF) {
          const target = fillParams(url, '1');
          const res = await send(method, target, who, csrf, undefined);
          check(res, `${method} ${target} as ${who}, CSRF ${csrf}`);
          const bearer = /^\/api\/actor\/|^\/integrations\/:id\/events$|^\/users\/sign_in/.test(url);
          if (method !== 'GET' && !bearer && csrf !== 'right' && res.statusCode < 400 && url !== '/users/sign_out') forgedAccepted.push(`${method} ${target} as ${who}, CSRF ${csrf}: ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(forgedAccepted).toEqual([]);
  }, 600_000);

  it('SEC-MATRIX every route x the hostile catalogue (roles rotating): never a 5xx, never a hang', async () => {
    let n = 0;
    for (const { method, url } of routes()) {
      for (const input of HOSTILE) {
        if (method === 'GET' && input.body !== undefined && input.param === undefined && input.query === undefined) continue;
        const who = WHO[n++ % WHO.length]!;
        await sessionOf(who);
        const target = fillParams(url, input.param ?? '1') + (input.query ? `?${input.query}` : '');
        const res = await send(method, target, who, 'right', input);
        check(res, `${method} ${target.slice(0, 120)} as ${who} with ${input.name}`);
        // Signed in with the right token, so what stops these is input validation: a 4xx, and a clear one.
        if (res.statusCode >= 400 && res.statusCode < 500 && res.headers['content-type']?.toString().includes('json')) {
          expect(typeof res.json<{ error?: unknown }>().error, `${method} ${target} with ${input.name}`).toBe('string');
        }
      }
    }
    console.log(`route matrix: ${routes().length} routes, ${requests} requests, ${failures.length} 5xx`);
    expect(failures).toEqual([]);
  }, 600_000);
});
