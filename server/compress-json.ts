/**
 * Compression of the director's JSON answers (node:zlib, no dependency), registered once on the root
 * instance (app.ts) so every route plugin's answers get it. The rules:
 * - only JSON answers sent as text or as a buffer (the serialized answer of a handler or of the error
 *   handler, an answer a route keeps written); streams (CSV exports, packet downloads) and other types
 *   pass untouched;
 * - a buffer's compressed forms are kept with it (a WeakMap): an answer a route keeps as a buffer while
 *   its data is unchanged (the library's pages) is compressed once per encoding, not once per call;
 * - every JSON answer says `Vary: Accept-Encoding` (added to any Vary already set), so a cache never
 *   hands one client's encoding to another;
 * - answers under COMPRESS_MIN_BYTES, answers without a body (204, 304) and answers that already carry
 *   a Content-Encoding are sent as they are (never encoded twice);
 * - brotli when accepted, else gzip (see compress for the levels); `q=0` refuses an encoding, `*` accepts gzip;
 * - when compression would not make the answer smaller, the answer is sent as it is.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** JSON answers smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

/** Encodings picked for Accept-Encoding values seen (a browser sends the same one every time). */
const picked = new Map<string, Encoding | undefined>();

/** Picks the encoding the client accepts, brotli first; `q=0` means refused, `*` accepts gzip. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  if (picked.has(acceptEncoding)) return picked.get(acceptEncoding);
  const encoding = parseAcceptEncoding(acceptEncoding);
  if (picked.size >= 64) picked.clear();
  picked.set(acceptEncoding, encoding);
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding | undefined {
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((p) => p.trim().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/** Adds Accept-Encoding to the answer's Vary header, keeping what is there. */
function varyOnEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const names = (Array.isArray(current) ? current.join(',') : String(current ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  if (names.includes('*') || names.some((n) => n.toLowerCase() === 'accept-encoding')) return;
  reply.header('Vary', [...names, 'Accept-Encoding'].join(', '));
}

type Encoding = 'br' | 'gzip';

/** The compressed forms of buffers sent before (null: compression did not make it smaller). */
const compressedBuffers = new WeakMap<Buffer, Partial<Record<Encoding, Buffer | null>>>();

/**
 * An answer made for one call is compressed fast (brotli quality 1, gzip level 1: the profile of 32
 * clients on the jobs list showed quality 4 as a tenth of the director's CPU); a kept one, compressed
 * once, smaller (brotli 5, gzip 6).
 */
function compress(payload: string | Buffer, size: number, encoding: Encoding, kept = false): Buffer | null {
  const body =
    encoding === 'br'
      ? brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: kept ? 5 : 1, [constants.BROTLI_PARAM_SIZE_HINT]: size } })
      : gzipSync(payload, { level: kept ? 6 : 1 });
  return body.length < size ? body : null;
}

function compressKept(payload: Buffer, encoding: Encoding): Buffer | null {
  let forms = compressedBuffers.get(payload);
  if (!forms) compressedBuffers.set(payload, (forms = {}));
  const kept = forms[encoding];
  if (kept !== undefined) return kept;
  return (forms[encoding] = compress(payload, payload.length, encoding, true));
}

export function compressJson(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if ((typeof payload !== 'string' && !Buffer.isBuffer(payload)) || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    if (reply.statusCode === 204 || reply.statusCode === 304 || reply.getHeader('content-encoding')) return payload;
    varyOnEncoding(reply);
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < COMPRESS_MIN_BYTES) return payload;
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = typeof payload === 'string' ? compress(payload, size, encoding) : compressKept(payload, encoding);
    if (!body) return payload;
    reply.header('Content-Encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
