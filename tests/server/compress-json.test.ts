/**
 * The director's JSON compression (server/compress-json.ts): big JSON answers (text, or buffers a
 * route keeps) are compressed as the client accepts, small ones, streams, CSV downloads and already-encoded answers are not, and every
 * JSON answer varies on Accept-Encoding (added to any Vary already set). The last block checks the
 * hook reaches the route plugins of the real director (a JSON call and the jobs CSV export).
 */
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, compressJson, pickEncoding } from '../../server/compress-json';
import { startTestServer, type Session, type TestServer } from './helpers';

const big = { rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}`, note: 'the same words again and again' })) };
const bigText = JSON.stringify(big);
/** An answer a route keeps written as a buffer (as the library's pages are). */
const kept = Buffer.from(bigText);

describe('pickEncoding', () => {
  it('prefers brotli, then gzip; q=0 refuses; * accepts gzip; nothing else is offered', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(pickEncoding('BR')).toBe('br');
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('deflate, identity')).toBeUndefined();
    expect(pickEncoding('gzip;q=0.0')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});

describe('compressJson on a bare Fastify instance', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    compressJson(app);
    app.get('/big', async () => big);
    app.get('/small', async () => ({ ok: true }));
    app.get('/kept', async (_req, reply) => reply.type('application/json; charset=utf-8').send(kept));
    app.get('/vary', async (_req, reply) => reply.header('Vary', 'Origin').send(big));
    app.get('/encoded', async (_req, reply) => reply.type('application/json').header('Content-Encoding', 'gzip').send(gzipSync(bigText)));
    app.get('/csv', async (_req, reply) => reply.type('text/csv').send('a,b\n'.repeat(2000)));
    app.get('/stream', async (_req, reply) => reply.type('application/json').send(Readable.from([bigText])));
    app.get('/empty', async (_req, reply) => reply.status(204).type('application/json').send());
    app.get('/error', async () => {
      throw Object.assign(new Error('x'.repeat(2 * COMPRESS_MIN_BYTES)), { statusCode: 400 });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) => app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('compresses a big JSON answer with brotli or gzip, whichever the client accepts, and says it varies', async () => {
    const br = await get('/big', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(bigText));
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(big);
    const gz = await get('/big', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(big);
  });

  it('compresses an answer kept as a buffer, and answers the same bytes for it again (its compressed forms are kept with it)', async () => {
    const first = await get('/kept', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(first.rawPayload).toString())).toEqual(big);
    const again = await get('/kept', 'br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const gz = await get('/kept', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(big);
    const plain = await get('/kept');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(big);
  });

  it('sends the answer as it is to a client that accepts no encoding, still varying on Accept-Encoding', async () => {
    const res = await get('/big');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.json()).toEqual(big);
  });

  it('leaves a JSON answer under the threshold as it is', async () => {
    const res = await get('/small', 'br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.json()).toEqual({ ok: true });
  });

  it('adds Accept-Encoding to a Vary header the route set, keeping it', async () => {
    const res = await get('/vary', 'br');
    expect(res.headers.vary).toBe('Origin, Accept-Encoding');
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('never encodes an already-encoded answer twice', async () => {
    const res = await get('/encoded', 'br');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(big);
  });

  it('leaves CSV downloads, streams and bodiless answers alone', async () => {
    const csv = await get('/csv', 'br');
    expect(csv.headers['content-encoding']).toBeUndefined();
    expect(csv.headers.vary).toBeUndefined();
    expect(csv.body).toBe('a,b\n'.repeat(2000));
    const stream = await get('/stream', 'br');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.json()).toEqual(big);
    const empty = await get('/empty', 'br');
    expect(empty.statusCode).toBe(204);
    expect(empty.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a big error answer too (the error handler serializes JSON like a handler)', async () => {
    const res = await get('/error', 'gzip');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).message).toMatch(/^x+$/);
  });
});

describe('compressJson in the director', () => {
  let s: TestServer;
  let operator: Session;
  beforeAll(async () => {
    s = await startTestServer();
    operator = await s.signIn('operator');
  });
  afterAll(() => s?.close());

  it('compresses a route plugin\'s big JSON answer and leaves the jobs CSV export (a stream) as it is', async () => {
    const json = await s.call('GET', '/filters/config.json?target=jobs', { as: operator, headers: { 'accept-encoding': 'br' } });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-encoding']).toBe('br');
    expect(json.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(brotliDecompressSync(json.rawPayload).toString()).data).toBeTruthy();
    const csv = await s.call('GET', '/jobs/list_page_data.csv', { as: operator, headers: { 'accept-encoding': 'br' } });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    expect(csv.headers['content-encoding']).toBeUndefined();
  });
});
