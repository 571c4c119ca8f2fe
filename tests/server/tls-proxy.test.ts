/**
 * TLS and proxies: TRUST_PROXY believes a TLS proxy's X-Forwarded-Proto (and only then), the session
 * cookie is `__Host-` prefixed and Secure whenever the request is HTTPS, and the director serves HTTPS
 * itself with TLS_CERT/TLS_KEY or a generated self-signed pair whose SHA-256 fingerprint it reports.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ConfigError, readConfig } from '../../server/config';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../server/auth/sessions';
import { loadTls, selfSignedPair } from '../../server/tls';
import { EMAILS, PASSWORD, startTestServer, testConfig, type TestServer } from './helpers';

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-tls-'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signInBody = JSON.stringify({ email: EMAILS.viewer, password: PASSWORD });
const json = { 'content-type': 'application/json' };

describe('configuration', () => {
  it('reads TRUST_PROXY as off, on, a hop count or proxy addresses, and refuses anything else', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(() => readConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
  });

  it('reads TLS_CERT with TLS_KEY, or TLS=self-signed, and refuses half a pair or an unknown mode', () => {
    expect(readConfig({}).tls).toBeUndefined();
    expect(readConfig({ TLS: 'self-signed' }).tls).toBe('self-signed');
    expect(readConfig({ TLS_CERT: '/etc/vigil/cert.pem', TLS_KEY: '/etc/vigil/key.pem' }).tls).toEqual({ certFile: '/etc/vigil/cert.pem', keyFile: '/etc/vigil/key.pem' });
    expect(() => readConfig({ TLS_CERT: '/etc/vigil/cert.pem' })).toThrow('TLS_CERT and TLS_KEY go together');
    expect(() => readConfig({ TLS: 'yes' })).toThrow(ConfigError);
  });
});

describe('cookies behind a proxy', () => {
  it('without TRUST_PROXY a forged X-Forwarded-Proto is ignored: plain cookie, not Secure', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/users/sign_in.json', headers: { ...json, 'x-forwarded-proto': 'https' }, payload: signInBody });
    expect(res.statusCode).toBe(200);
    const c = res.cookies.find((x) => x.name === SESSION_COOKIE);
    expect(c).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(c?.secure).toBeUndefined();
    expect(res.cookies.find((x) => x.name === SECURE_SESSION_COOKIE)).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('with TRUST_PROXY and X-Forwarded-Proto: https the cookie is __Host-, Secure, Path=/ without Domain, and HSTS is sent', async () => {
    const proxied = await t.buildOtherApp({ trustProxy: true });
    const res = await proxied.inject({ method: 'POST', url: '/users/sign_in.json', headers: { ...json, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }, payload: signInBody });
    expect(res.statusCode).toBe(200);
    const raw = String(res.headers['set-cookie']);
    expect(raw).toMatch(/^__Host-vigil_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(raw).not.toMatch(/Domain/i);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    const value = res.cookies.find((x) => x.name === SECURE_SESSION_COOKIE)!.value;
    const over = (proto: string, name: string) =>
      proxied.inject({ method: 'GET', url: '/users/verify_user_session', headers: { 'x-forwarded-proto': proto, cookie: `${name}=${value}` } });
    expect((await over('https', SECURE_SESSION_COOKIE)).statusCode).toBe(200);
    // Over HTTPS only the __Host- cookie counts, so a cookie planted under the plain name is ignored.
    expect((await over('https', SESSION_COOKIE)).statusCode).toBe(401);
    // Signing out over HTTPS clears the __Host- cookie with the same attributes.
    const out = await proxied.inject({ method: 'DELETE', url: '/users/sign_out', headers: { 'x-forwarded-proto': 'https', cookie: `${SECURE_SESSION_COOKIE}=${value}`, 'x-csrf-token': res.json<{ csrf_token: string }>().csrf_token } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-vigil_session=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('with TRUST_PROXY a plain-HTTP request (no X-Forwarded-Proto) keeps the plain cookie', async () => {
    const proxied = await t.buildOtherApp({ trustProxy: '127.0.0.1' });
    const res = await proxied.inject({ method: 'POST', url: '/users/sign_in.json', headers: json, payload: signInBody });
    expect(res.cookies.map((c) => c.name)).toEqual([SESSION_COOKIE]);
  });
});

function post(url: string, body: string, ca: Buffer): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; peerFingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'POST', ca, headers: { ...json, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, peerFingerprint: peer.fingerprint256 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTPS served by the director', () => {
  it('TLS=self-signed generates a pair once (same fingerprint on restart) that openssl agrees on', () => {
    const tlsDir = path.join(dir, 'data');
    const first = loadTls({ tls: 'self-signed', dataDir: tlsDir, host: '127.0.0.1' })!;
    expect(first.selfSigned).toBe(true);
    expect(first.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const openssl = execFileSync('openssl', ['x509', '-in', first.certFile, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' });
    expect(openssl.trim()).toBe(`sha256 Fingerprint=${first.fingerprint256}`);
    const again = loadTls({ tls: 'self-signed', dataDir: tlsDir, host: '127.0.0.1' })!;
    expect(again.fingerprint256).toBe(first.fingerprint256);
    expect(fs.statSync(path.join(tlsDir, 'tls', 'self-signed-key.pem')).mode & 0o777).toBe(0o600);
  });

  it('serves HTTPS with the pair: the client verifies it, and the session cookie is __Host- and Secure', async () => {
    const pair = loadTls({ tls: 'self-signed', dataDir: path.join(dir, 'data'), host: '127.0.0.1' })!;
    const app = await buildApp({ db: t.db, config: testConfig(), https: pair });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const res = await post(`https://127.0.0.1:${port}/users/sign_in.json`, signInBody, pair.cert);
      expect(res.status).toBe(200);
      expect(res.peerFingerprint).toBe(pair.fingerprint256);
      expect(String(res.headers['set-cookie'])).toMatch(/^__Host-vigil_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      // Without the certificate as a trusted CA the client refuses it.
      await expect(post(`https://127.0.0.1:${port}/users/sign_in.json`, signInBody, Buffer.from(''))).rejects.toThrow(/self[- ]signed|certificate/i);
    } finally {
      await app.close();
    }
  });

  it('TLS_CERT/TLS_KEY: a key of another certificate, or a missing file, is a configuration error', () => {
    const a = selfSignedPair(path.join(dir, 'a'));
    const b = selfSignedPair(path.join(dir, 'b'));
    expect(loadTls({ tls: { certFile: a.certFile, keyFile: a.keyFile }, dataDir: dir, host: '127.0.0.1' })?.selfSigned).toBe(false);
    expect(() => loadTls({ tls: { certFile: a.certFile, keyFile: b.keyFile }, dataDir: dir, host: '127.0.0.1' })).toThrow(/not usable/);
    expect(() => loadTls({ tls: { certFile: path.join(dir, 'none.pem'), keyFile: a.keyFile }, dataDir: dir, host: '127.0.0.1' })).toThrow(/cannot be read/);
  });
});
