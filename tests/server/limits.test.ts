/**
 * Limits before work (issue 24, item 1): the director refuses what it should not read before reading it,
 * bounds what it does read, and answers hostile input with a 4xx, never a 5xx. 5xx answers carry a
 * request id that the log carries too.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { startTestServer, testConfig, type Session, type TestServer } from './helpers';

let t: TestServer;
let admin: Session;
let base = '';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.signIn('admin');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Streamed {
  status: number;
  bytesSent: number;
  rssGrowth: number;
}

/**
 * POSTs a body of `size` bytes announced in Content-Length, streamed in 1 MiB chunks while the director
 * lets us write, and stops writing once the answer arrives. Reports how much was sent and how much the
 * director's process grew (the test runs the director in this process).
 */
function streamBody(url: string, size: number, headers: Record<string, string>): Promise<Streamed> {
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(size) } });
    const pump = () => {
      while (!answered && sent < size) {
        peak = Math.max(peak, process.memoryUsage().rss);
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, bytesSent: sent, rssGrowth: Math.max(peak, process.memoryUsage().rss) - rssBefore });
      });
    });
    req.on('error', (e) => (answered ? undefined : reject(e)));
    pump();
  });
}

describe('limits before work', () => {
  it('SEC-LIMIT an anonymous 256 MiB body to POST /scripts.json is refused with 403 before it is read, and the director keeps answering', async () => {
    const size = 256 * 1024 * 1024;
    const r = await streamBody(`${base}/scripts.json`, size, { 'content-type': 'application/json' });
    // 403 (the CSRF/session check), not 413: the refusal came before the body was considered at all.
    expect(r.status).toBe(403);
    expect(r.bytesSent).toBeLessThan(size);
    expect(r.rssGrowth).toBeLessThan(64 * 1024 * 1024);
    const env = await fetch(`${base}/environment.json`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(env.status).toBeLessThan(500);
  }, 120_000);

  it('SEC-LIMIT a forged token header is refused before the body is read, even with a live session', async () => {
    const r = await streamBody(`${base}/scripts.json`, 64 * 1024 * 1024, { 'content-type': 'application/json', cookie: admin.cookie, 'x-csrf-token': 'forged' });
    expect(r.status).toBe(403);
  }, 120_000);

  it('SEC-LIMIT anonymous multipart with 1000 fields of 1 MiB to POST /manage_sims/actions.json is refused with 403 before it is read', async () => {
    const r = await streamBody(`${base}/manage_sims/actions.json`, 1000 * 1024 * 1024, { 'content-type': 'multipart/form-data; boundary=x' });
    expect(r.status).toBe(403);
    expect(r.rssGrowth).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  it('SEC-LIMIT a signed-in JSON body over the 1 MiB default limit answers 413 with a message', async () => {
    const res = await t.call('POST', '/scripts.json', { as: admin, body: { name: 'big', content: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ error: string }>().error).toMatch(/too large|limit/i);
  });

  it('SEC-LIMIT JSON nested 3000 deep answers 400 on anonymous sign-in, actor registration and a signed-in call', async () => {
    const deep = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
    for (const [url, as] of [
      ['/users/sign_in.json', undefined],
      ['/api/actor/register', undefined],
      ['/scripts.json', admin],
    ] as const) {
      const res = await t.call('POST', url, { as, body: deep });
      expect(res.statusCode, url).toBe(400);
    }
    const signIn = await t.call('POST', '/users/sign_in.json', { body: { email: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['x']]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], password: 'x' } });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json<{ error: string }>().error).toMatch(/nested more than 32 levels/);
  });

  it('SEC-LIMIT ids beyond the integer range answer 404 or 400, never 500, including the unauthenticated events intake', async () => {
    for (const id of ['99999999999999999999', '1e308', '-1', '0x10']) {
      for (const [method, url, as] of [
        ['GET', `/jobs/${id}`, admin],
        ['GET', `/manage_sims/pcaps/${id}/packets.json`, admin],
        ['POST', `/integrations/${id}/events`, undefined],
        ['DELETE', `/scripts/${id}.json`, admin],
      ] as const) {
        const res = await t.call(method, url, { as, body: method === 'GET' ? undefined : {} });
        expect([400, 401, 404], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
      }
    }
  });

  it('SEC-LIMIT NUL bytes in a path, a query or a body field answer 400', async () => {
    expect((await t.call('GET', '/jobs/1%00', { as: admin })).statusCode).toBe(400);
    expect((await t.call('GET', '/jobs/list_page_data.json?search=a%00b', { as: admin })).statusCode).toBe(400);
    const res = await t.call('POST', '/scripts.json', { as: admin, body: { name: 'a\u0000b', content: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/NUL/);
  });

  it('SEC-LOG a 5xx is logged with a request id, and the answer carries the same id', async () => {
    const lines: string[] = [];
    const app = await buildApp({ db: t.db, config: testConfig(), logStream: { write: (line) => void lines.push(line) } });
    app.get('/test-only/boom', async () => {
      throw new Error('boom for the log test');
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/test-only/boom' });
      expect(res.statusCode).toBe(500);
      const id = res.json<{ request_id: string }>().request_id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.json<{ error: string }>().error).toContain(id);
      const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; level: number; err?: { message: string } }).find((l) => l.reqId === id);
      expect(logged?.level).toBe(50);
      expect(logged?.err?.message).toBe('boom for the log test');
    } finally {
      await app.close();
    }
  });

  it('SEC-HEADERS the workbench page has a CSP without inline scripts and refuses framing; every answer has nosniff and a Referrer-Policy', async () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-headers-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<html><head><meta name="csrf-token" content="" /></head></html>');
    try {
      const app = await t.buildOtherApp({ staticDir });
      const page = await app.inject({ method: 'GET', url: '/jobs', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      const api = await app.inject({ method: 'GET', url: '/environment.json' });
      for (const res of [page, api]) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('same-origin');
        expect(res.headers['x-frame-options']).toBe('DENY');
      }
    } finally {
      fs.rmSync(staticDir, { recursive: true, force: true });
    }
  });
});
