/**
 * Reads the entries of an uploaded zip (names, sizes, sha256 of the expanded content) for the file
 * library's zipfile_check, streamed from the stored upload: only the central directory and one entry's
 * chunk at a time are in memory, expansion runs in zlib's thread pool chunk by chunk, and the event loop
 * never waits on a whole entry. Zip bombs are refused before anything is expanded when the headers
 * already tell (more entries, more total expansion, or a higher compression ratio than the limits), and
 * within the first bytes past what an entry declares when its headers lie. Entry names are normalised
 * (backslashes, `.` and empty segments) and the archive is refused when a name is absolute or escapes
 * it with `..` (zip-slip). Password-protected entries are read with the upload's zipfile_password:
 * traditional PKWARE encryption (ZipCrypto) and WinZip AES (128/192/256); an encrypted entry's
 * compressed bytes (at most the upload's size) are decrypted in memory before they are expanded.
 * Only Node's crypto, fs and zlib; no dependency.
 *
 * Size: the reader and the small writer (for tests and demo fixtures) share the private CRC-32,
 * ZipCrypto and AES key code, which would otherwise be exported only for each other.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

export interface ZipLimits {
  maxEntries: number;
  maxExpandedBytes: number;
  /**
   * Highest expansion ratio (expanded : compressed) of an entry larger than RATIO_FLOOR_BYTES, and of
   * the whole archive past that size; 100 as Apache POI's ZipSecureFile (minimum inflate ratio 0.01).
   */
  maxRatio: number;
}

/** Entries (and archives) expanding to less than this are never refused for their ratio alone. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;
/** A central directory larger than this is refused (10,000 entries with 1 KB names fit easily). */
const MAX_CENTRAL_BYTES = 16 * 1024 * 1024;

export interface ZipEntryInfo {
  name: string;
  size: number;
  sha256sum: string;
  encrypted: boolean;
}

/** A problem with the archive the uploader can act on (bad password, too big, not a zip). */
export class ZipError extends Error {
  constructor(
    message: string,
    public readonly field: 'file_upload' | 'zipfile_password' = 'file_upload',
  ) {
    super(message);
  }
}

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

const crcByte = (crc: number, b: number) => (CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8)) >>> 0;

/** Continues a CRC-32 (start with 0xffffffff, finish with `^ 0xffffffff`) over one chunk. */
function crcUpdate(c: number, buf: Uint8Array): number {
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8)) >>> 0;
  return c;
}

export function crc32(buf: Uint8Array): number {
  return (crcUpdate(0xffffffff, buf) ^ 0xffffffff) >>> 0;
}

/** Traditional PKWARE encryption keys. */
class ZipCryptoKeys {
  k0 = 305419896;
  k1 = 591751049;
  k2 = 878082192;
  constructor(password: Buffer) {
    for (const b of password) this.update(b);
  }
  update(b: number) {
    this.k0 = crcByte(this.k0, b);
    this.k1 = (Math.imul((this.k1 + (this.k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0;
    this.k2 = crcByte(this.k2, this.k1 >>> 24);
  }
  streamByte(): number {
    const t = (this.k2 | 2) & 0xffff;
    return (Math.imul(t, t ^ 1) >>> 8) & 0xff;
  }
  decrypt(data: Uint8Array): Buffer {
    const out = Buffer.allocUnsafe(data.length);
    for (let i = 0; i < data.length; i++) {
      const c = data[i]! ^ this.streamByte();
      this.update(c);
      out[i] = c;
    }
    return out;
  }
  encrypt(data: Uint8Array): Buffer {
    const out = Buffer.allocUnsafe(data.length);
    for (let i = 0; i < data.length; i++) {
      const p = data[i]!;
      out[i] = p ^ this.streamByte();
      this.update(p);
    }
    return out;
  }
}

/** AES in WinZip's CTR mode: a little-endian counter starting at 1. */
function aesCtr(key: Buffer, data: Uint8Array): Buffer {
  const cipher = crypto.createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  cipher.setAutoPadding(false);
  const blocks = Math.ceil(data.length / 16);
  const counters = Buffer.alloc(blocks * 16);
  for (let i = 0; i < blocks; i++) {
    let n = i + 1;
    for (let j = 0; j < 8 && n > 0; j++) {
      counters[i * 16 + j] = n & 0xff;
      n = Math.floor(n / 256);
    }
  }
  const stream = Buffer.concat([cipher.update(counters), cipher.final()]);
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ stream[i]!;
  return out;
}

const AES_KEY_BYTES: Record<number, number> = { 1: 16, 2: 24, 3: 32 };

function aesKeys(password: Buffer, salt: Buffer, keyBytes: number) {
  const derived = crypto.pbkdf2Sync(password, salt, 1000, keyBytes * 2 + 2, 'sha1');
  return { enc: derived.subarray(0, keyBytes), mac: derived.subarray(keyBytes, keyBytes * 2), verify: derived.subarray(keyBytes * 2) };
}

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  extra: Buffer;
}

/** Random access to an archive: a stored upload on disk, or a buffer (fixtures). */
export interface ZipSource {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
  stream(position: number, length: number): Readable;
  close(): Promise<void>;
}

export function bufferSource(buf: Buffer): ZipSource {
  return {
    size: buf.length,
    read: async (p, l) => buf.subarray(p, p + l),
    stream: (p, l) => Readable.from(l > 0 ? [buf.subarray(p, p + l)] : []),
    close: async () => undefined,
  };
}

export async function fileSource(file: string): Promise<ZipSource> {
  const fh = await fsp.open(file, 'r');
  const { size } = await fh.stat();
  return {
    size,
    read: async (p, l) => {
      const b = Buffer.alloc(Math.max(0, Math.min(l, size - p)));
      const { bytesRead } = await fh.read(b, 0, b.length, p);
      return b.subarray(0, bytesRead);
    },
    stream: (p, l) => (l > 0 ? fs.createReadStream(file, { start: p, end: p + l - 1, highWaterMark: 256 * 1024 }) : Readable.from([])),
    close: () => fh.close(),
  };
}

function findEocd(buf: Buffer): number {
  for (let i = buf.length - 22; i >= 0; i--) if (buf.readUInt32LE(i) === SIG_EOCD) return i;
  return -1;
}

/**
 * An entry's name as stored in the library: backslashes as slashes, `.` and empty segments dropped, `..`
 * resolved. Absolute names (`/etc/shadow`, `C:\x`, `\\server\share`) and names escaping the archive
 * (`../../etc/passwd`) throw: extracting them would write outside the destination (zip-slip).
 */
export function normaliseEntryName(raw: string): string {
  const shown = JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw new ZipError(`has an entry name with a control character: ${shown}`);
  const s = raw.replace(/\\/g, '/');
  if (s.startsWith('/') || /^[A-Za-z]:/.test(s)) throw new ZipError(`has an entry with an absolute path, ${shown}: archives that would extract outside their folder are refused`);
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) throw new ZipError(`has an entry whose path escapes the archive, ${shown} (zip-slip): archives that would extract outside their folder are refused`);
      parts.pop();
    } else parts.push(seg);
  }
  if (!parts.length) throw new ZipError(`has an entry without a name (${shown})`);
  return parts.join('/') + (s.endsWith('/') ? '/' : '');
}

async function readCentral(src: ZipSource, limits: ZipLimits): Promise<CentralEntry[]> {
  const tailLength = Math.min(src.size, 65557);
  const tail = await src.read(src.size - tailLength, tailLength);
  const eocd = findEocd(tail);
  if (eocd < 0) throw new ZipError('is not a zip file (no end of central directory)');
  if (eocd >= 20 && tail.readUInt32LE(eocd - 20) === SIG_ZIP64_LOCATOR) throw new ZipError('is a Zip64 archive, which the library does not open');
  const total = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (total > limits.maxEntries) throw new ZipError(`has ${total} entries, more than the limit of ${limits.maxEntries}`);
  if (cdSize > MAX_CENTRAL_BYTES) throw new ZipError(`has a central directory of ${cdSize} bytes, more than the limit of ${MAX_CENTRAL_BYTES}`);
  if (cdOffset + cdSize > src.size) throw new ZipError('is a damaged zip file (bad central directory)');
  const buf = await src.read(cdOffset, cdSize);
  const entries: CentralEntry[] = [];
  let p = 0;
  for (let i = 0; i < total; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== SIG_CENTRAL) throw new ZipError('is a damaged zip file (bad central directory)');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (p + 46 + nameLen + extraLen > buf.length) throw new ZipError('is a damaged zip file (truncated central directory)');
    const flags = buf.readUInt16LE(p + 8);
    const nameBytes = buf.subarray(p + 46, p + 46 + nameLen);
    entries.push({
      name: normaliseEntryName(flags & 0x800 ? nameBytes.toString('utf8') : nameBytes.toString('latin1')),
      flags,
      method: buf.readUInt16LE(p + 10),
      crc: buf.readUInt32LE(p + 16),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
      extra: Buffer.from(buf.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen)),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function aesExtra(extra: Buffer): { strength: number; method: number } | null {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (id === 0x9901 && len >= 7) return { strength: extra[p + 8]!, method: extra.readUInt16LE(p + 9) };
    p += 4 + len;
  }
  return null;
}

const ratioText = (expanded: number, compressed: number) => `${Math.round(expanded / Math.max(1, compressed))}:1`;

/** Refuses, from the headers alone, what would expand too far: before a single byte is expanded. */
function checkDeclared(entries: CentralEntry[], archiveSize: number, limits: ZipLimits): void {
  const declared = entries.reduce((s, e) => s + e.size, 0);
  if (declared > limits.maxExpandedBytes) throw new ZipError(`is refused as a zip bomb: it expands to ${declared} bytes, more than the limit of ${limits.maxExpandedBytes}`);
  for (const e of entries) {
    if (e.size > RATIO_FLOOR_BYTES && e.size > limits.maxRatio * Math.max(1, e.compressedSize)) {
      throw new ZipError(`is refused as a zip bomb: entry ${e.name} expands ${ratioText(e.size, e.compressedSize)} (${e.compressedSize} to ${e.size} bytes), more than the limit of ${limits.maxRatio}:1`);
    }
  }
  if (declared > RATIO_FLOOR_BYTES && declared > limits.maxRatio * Math.max(1, archiveSize)) {
    throw new ZipError(`is refused as a zip bomb: it expands ${ratioText(declared, archiveSize)} (${archiveSize} to ${declared} bytes), more than the limit of ${limits.maxRatio}:1`);
  }
}

/** An entry's stored bytes after decryption (read whole: at most the upload's size), or null when it is not encrypted. */
async function decrypted(src: ZipSource, e: CentralEntry, start: number, localFlags: Buffer, pw: Buffer, password: string): Promise<{ data: Buffer; method: number; aes: boolean }> {
  if (!password) throw new ZipError(`is password protected (entry ${e.name}): enter the zip password`, 'zipfile_password');
  const data = await src.read(start, e.compressedSize);
  if (e.method === 99) {
    const aes = aesExtra(e.extra);
    const keyBytes = aes ? AES_KEY_BYTES[aes.strength] : undefined;
    if (!aes || !keyBytes) throw new ZipError(`uses an unknown AES encryption for ${e.name}`);
    const saltLen = keyBytes / 2;
    if (data.length < saltLen + 2 + 10) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
    const keys = aesKeys(pw, data.subarray(0, saltLen), keyBytes);
    if (!keys.verify.equals(data.subarray(saltLen, saltLen + 2))) throw new ZipError('The zip password is wrong', 'zipfile_password');
    const body = data.subarray(saltLen + 2, data.length - 10);
    const mac = crypto.createHmac('sha1', keys.mac).update(body).digest().subarray(0, 10);
    if (!mac.equals(data.subarray(data.length - 10))) throw new ZipError(`is a damaged zip file (entry ${e.name} fails its authentication code)`);
    return { data: aesCtr(keys.enc, body), method: aes.method, aes: true };
  }
  if (data.length < 12) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
  const keys = new ZipCryptoKeys(pw);
  const header = keys.decrypt(data.subarray(0, 12));
  const check = e.flags & 0x8 ? (localFlags.readUInt16LE(10) >>> 8) & 0xff : (e.crc >>> 24) & 0xff;
  if (header[11] !== check) throw new ZipError('The zip password is wrong', 'zipfile_password');
  return { data: keys.decrypt(data.subarray(12)), method: e.method, aes: false };
}

/**
 * Lists and hashes every entry of an archive, streamed; throws ZipError for anything the uploader
 * should fix (a bomb, zip-slip, a wrong password, damage). `src` is closed when done.
 */
export async function inspectZip(src: ZipSource, password: string, limits: ZipLimits): Promise<ZipEntryInfo[]> {
  try {
    const entries = await readCentral(src, limits);
    checkDeclared(entries, src.size, limits);
    const pw = Buffer.from(password, 'utf8');
    let expandedTotal = 0;
    const out: ZipEntryInfo[] = [];
    for (const e of entries) {
      const encrypted = (e.flags & 1) === 1;
      if (e.name.endsWith('/')) {
        out.push({ name: e.name, size: 0, sha256sum: '', encrypted });
        continue;
      }
      const local = await src.read(e.localOffset, 30);
      if (local.length < 30 || local.readUInt32LE(0) !== SIG_LOCAL) throw new ZipError(`is a damaged zip file (bad local header for ${e.name})`);
      const start = e.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      if (start + e.compressedSize > src.size) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
      const plain = encrypted ? await decrypted(src, e, start, local, pw, password) : null;
      const method = plain?.method ?? e.method;
      if (method !== 0 && method !== 8) throw new ZipError(`uses compression method ${method} for ${e.name}, which the library does not open`);
      const input = plain ? Readable.from([plain.data]) : src.stream(start, e.compressedSize);
      const hash = crypto.createHash('sha256');
      let size = 0;
      let crc = 0xffffffff;
      // The sink's own refusal wins over the premature-close error the destroyed streams answer with.
      let refusal: ZipError | null = null;
      const refuse = (message: string) => {
        refusal = new ZipError(message);
        throw refusal;
      };
      // ZipCrypto checks a password against one byte: 1 wrong password in 256 passes it and decrypts
      // to garbage, which then fails to inflate, overruns or misses its declared size, or fails its CRC.
      // For such an entry all of these mean a wrong password (refused before expanding past its size).
      const zipCrypto = encrypted && !plain?.aes;
      const wrongPassword = () => new ZipError('The zip password is wrong', 'zipfile_password');
      try {
        const sink = async (chunks: AsyncIterable<Buffer>) => {
          for await (const chunk of chunks) {
            size += chunk.length;
            // A header that lies about the size is a bomb: stop at the first byte past what it declared.
            if (size > e.size) {
              if (zipCrypto) throw (refusal = wrongPassword());
              refuse(`is refused as a zip bomb: entry ${e.name} expands beyond the ${e.size} bytes its header declares`);
            }
            if (expandedTotal + size > limits.maxExpandedBytes) refuse(`is refused as a zip bomb: it expands beyond the limit of ${limits.maxExpandedBytes} bytes`);
            hash.update(chunk);
            crc = crcUpdate(crc, chunk);
          }
        };
        if (method === 8) await pipeline(input, zlib.createInflateRaw({ chunkSize: 64 * 1024 }), sink);
        else await pipeline(input, sink);
      } catch (err) {
        if (refusal) throw refusal;
        if (err instanceof ZipError) throw err;
        if (zipCrypto) throw wrongPassword();
        throw new ZipError(`is a damaged zip file (entry ${e.name} cannot be expanded)`);
      }
      expandedTotal += size;
      if (size !== e.size && zipCrypto) throw wrongPassword();
      if (size !== e.size) throw new ZipError(`is a damaged zip file (entry ${e.name} expands to ${size} bytes, its header says ${e.size})`);
      if (!plain?.aes && ((crc ^ 0xffffffff) >>> 0) !== e.crc) {
        throw new ZipError(encrypted ? 'The zip password is wrong' : `is a damaged zip file (entry ${e.name} fails its checksum)`, encrypted ? 'zipfile_password' : 'file_upload');
      }
      out.push({ name: e.name, size, sha256sum: hash.digest('hex'), encrypted });
    }
    return out;
  } finally {
    await src.close();
  }
}

// ---------------------------------------------------------------------------------------------
// A small writer, for tests and fixtures: stored or deflated entries, optionally ZipCrypto or AES-256.

export interface ZipSourceEntry {
  name: string;
  content: Buffer;
  /** Lie about the expanded size in the headers (zip bomb fixtures). */
  declaredSize?: number;
}

export function buildZip(entries: ZipSourceEntry[], opts: { password?: string; encryption?: 'zipcrypto' | 'aes256'; deflate?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.content);
    const deflate = opts.deflate ?? true;
    let body: Buffer = deflate ? zlib.deflateRawSync(e.content, { level: 9 }) : e.content;
    let method = deflate ? 8 : 0;
    let flags = 0x800;
    let extra = Buffer.alloc(0);
    if (opts.password) {
      flags |= 1;
      if (opts.encryption === 'aes256') {
        const salt = crypto.randomBytes(16);
        const keys = aesKeys(Buffer.from(opts.password, 'utf8'), salt, 32);
        const enc = aesCtr(keys.enc, body);
        const mac = crypto.createHmac('sha1', keys.mac).update(enc).digest().subarray(0, 10);
        body = Buffer.concat([salt, keys.verify, enc, mac]);
        extra = Buffer.alloc(11);
        extra.writeUInt16LE(0x9901, 0);
        extra.writeUInt16LE(7, 2);
        extra.writeUInt16LE(2, 4);
        extra.write('AE', 6, 'latin1');
        extra[8] = 3;
        extra.writeUInt16LE(method, 9);
        method = 99;
      } else {
        const keys = new ZipCryptoKeys(Buffer.from(opts.password, 'utf8'));
        const header = crypto.randomBytes(12);
        header[11] = (crc >>> 24) & 0xff;
        body = Buffer.concat([keys.encrypt(header), keys.encrypt(body)]);
      }
    }
    const size = e.declaredSize ?? e.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(SIG_LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(SIG_CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, extra, body);
    centrals.push(central, name, extra);
    offset += local.length + name.length + extra.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(SIG_EOCD, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
