/**
 * Reads the entries of an uploaded zip (names, sizes, sha256 of the expanded content) for the file
 * library's zipfile_check, with limits on the number of entries and the total expanded size so that a
 * zip bomb is refused instead of filling memory. Password-protected entries are read with the upload's
 * zipfile_password: traditional PKWARE encryption (ZipCrypto) and WinZip AES (128/192/256).
 * Only Node's crypto and zlib; no dependency.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';

export interface ZipLimits {
  maxEntries: number;
  maxExpandedBytes: number;
}

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

export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcByte(c, b);
  return (c ^ 0xffffffff) >>> 0;
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

function findEocd(buf: Buffer): number {
  const min = Math.max(0, buf.length - 65557);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === SIG_EOCD) return i;
  return -1;
}

function readCentral(buf: Buffer, limits: ZipLimits): CentralEntry[] {
  const eocd = findEocd(buf);
  if (eocd < 0) throw new ZipError('is not a zip file (no end of central directory)');
  if (eocd >= 20 && buf.readUInt32LE(eocd - 20) === SIG_ZIP64_LOCATOR) throw new ZipError('is a Zip64 archive, which the library does not open');
  const total = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (total > limits.maxEntries) throw new ZipError(`has ${total} entries, more than the limit of ${limits.maxEntries}`);
  const entries: CentralEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < total; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== SIG_CENTRAL) throw new ZipError('is a damaged zip file (bad central directory)');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (p + 46 + nameLen + extraLen > buf.length) throw new ZipError('is a damaged zip file (truncated central directory)');
    const flags = buf.readUInt16LE(p + 8);
    const nameBytes = buf.subarray(p + 46, p + 46 + nameLen);
    entries.push({
      name: flags & 0x800 ? nameBytes.toString('utf8') : nameBytes.toString('latin1'),
      flags,
      method: buf.readUInt16LE(p + 10),
      crc: buf.readUInt32LE(p + 16),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
      extra: buf.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen),
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

function inflate(data: Buffer, method: number, maxOut: number, name: string): Buffer {
  if (method === 0) {
    if (data.length > maxOut) throw new ZipError(`expands beyond the limit (entry ${name})`);
    return data;
  }
  if (method !== 8) throw new ZipError(`uses compression method ${method} for ${name}, which the library does not open`);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, maxOut) });
  } catch (e) {
    if (e instanceof RangeError || (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipError(`expands beyond the limit of ${maxOut} bytes (entry ${name})`);
    throw new ZipError(`is a damaged zip file (entry ${name} cannot be expanded)`);
  }
}

/** Lists and hashes every entry; throws ZipError for anything the uploader should fix. */
export function readZipEntries(buf: Buffer, password: string, limits: ZipLimits): ZipEntryInfo[] {
  const entries = readCentral(buf, limits);
  const declared = entries.reduce((s, e) => s + e.size, 0);
  if (declared > limits.maxExpandedBytes) throw new ZipError(`expands to ${declared} bytes, more than the limit of ${limits.maxExpandedBytes}`);
  const pw = Buffer.from(password, 'utf8');
  let budget = limits.maxExpandedBytes;
  const out: ZipEntryInfo[] = [];
  for (const e of entries) {
    const isDir = e.name.endsWith('/');
    const lp = e.localOffset;
    if (lp + 30 > buf.length || buf.readUInt32LE(lp) !== SIG_LOCAL) throw new ZipError(`is a damaged zip file (bad local header for ${e.name})`);
    const start = lp + 30 + buf.readUInt16LE(lp + 26) + buf.readUInt16LE(lp + 28);
    if (start + e.compressedSize > buf.length) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
    let data: Buffer = buf.subarray(start, start + e.compressedSize);
    const encrypted = (e.flags & 1) === 1;
    let method = e.method;
    if (isDir) {
      out.push({ name: e.name, size: 0, sha256sum: '', encrypted });
      continue;
    }
    if (encrypted) {
      if (!password) throw new ZipError(`is password protected (entry ${e.name}): enter the zip password`, 'zipfile_password');
      if (method === 99) {
        const aes = aesExtra(e.extra);
        const keyBytes = aes ? AES_KEY_BYTES[aes.strength] : undefined;
        if (!aes || !keyBytes) throw new ZipError(`uses an unknown AES encryption for ${e.name}`);
        const saltLen = keyBytes / 2;
        if (data.length < saltLen + 2 + 10) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
        const salt = data.subarray(0, saltLen);
        const keys = aesKeys(pw, salt, keyBytes);
        if (!keys.verify.equals(data.subarray(saltLen, saltLen + 2))) throw new ZipError('The zip password is wrong', 'zipfile_password');
        const body = data.subarray(saltLen + 2, data.length - 10);
        const mac = crypto.createHmac('sha1', keys.mac).update(body).digest().subarray(0, 10);
        if (!mac.equals(data.subarray(data.length - 10))) throw new ZipError(`is a damaged zip file (entry ${e.name} fails its authentication code)`);
        data = aesCtr(keys.enc, body);
        method = aes.method;
      } else {
        if (data.length < 12) throw new ZipError(`is a damaged zip file (entry ${e.name} is truncated)`);
        const keys = new ZipCryptoKeys(pw);
        const header = keys.decrypt(data.subarray(0, 12));
        const check = e.flags & 0x8 ? (buf.readUInt16LE(lp + 10) >>> 8) & 0xff : (e.crc >>> 24) & 0xff;
        if (header[11] !== check) throw new ZipError('The zip password is wrong', 'zipfile_password');
        data = keys.decrypt(data.subarray(12));
      }
    }
    const content = inflate(data, method, budget, e.name);
    budget -= content.length;
    if (budget < 0) throw new ZipError(`expands beyond the limit of ${limits.maxExpandedBytes} bytes`);
    if (method !== 99 && !(encrypted && e.method === 99) && crc32(content) !== e.crc) {
      throw new ZipError(encrypted ? 'The zip password is wrong' : `is a damaged zip file (entry ${e.name} fails its checksum)`, encrypted ? 'zipfile_password' : 'file_upload');
    }
    out.push({ name: e.name, size: content.length, sha256sum: crypto.createHash('sha256').update(content).digest('hex'), encrypted });
  }
  return out;
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
