/** One-file zip and tar archives in plain TypeScript (deflate from zlib), written and read back. */
import zlib from 'node:zlib';

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A zip with one deflated entry named `name`. */
export function zipOne(name: string, data: Buffer): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const packed = zlib.deflateRawSync(data);
  const crc = zlib.crc32(data);
  // 1980-01-01 00:00: the archive is the same for the same file.
  const common = [u16(20), u16(0x0800), u16(8), u16(0), u16(0x21), u32(crc), u32(packed.length), u32(data.length), u16(fileName.length), u16(0)];
  const local = Buffer.concat([u32(0x04034b50), ...common, fileName]);
  const central = Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(0), fileName]);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(1), u16(1), u32(central.length), u32(local.length + packed.length), u16(0)]);
  return Buffer.concat([local, packed, central, end]);
}

/** The first entry of a zip (stored or deflated), its CRC checked; throws on anything else. */
export function unzipOne(zip: Buffer, maxBytes: number): Buffer {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const cd = zip.readUInt32LE(eocd + 16);
  if (zip.readUInt16LE(eocd + 10) < 1 || cd + 46 > zip.length || zip.readUInt32LE(cd) !== 0x02014b50) throw new Error('the zip archive has no entry');
  const method = zip.readUInt16LE(cd + 10);
  const crc = zip.readUInt32LE(cd + 16);
  const packedSize = zip.readUInt32LE(cd + 20);
  const size = zip.readUInt32LE(cd + 24);
  const offset = zip.readUInt32LE(cd + 42);
  if (offset + 30 > zip.length || zip.readUInt32LE(offset) !== 0x04034b50) throw new Error('the zip entry header is damaged');
  const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
  const packed = zip.subarray(start, start + packedSize);
  if (packed.length !== packedSize || size > maxBytes) throw new Error('the zip entry is truncated or too large');
  let data: Buffer;
  if (method === 0) data = packed;
  else if (method === 8) data = zlib.inflateRawSync(packed, { maxOutputLength: maxBytes });
  else throw new Error(`zip compression method ${method} is not supported`);
  if (data.length !== size || zlib.crc32(data) !== crc) throw new Error('the zip entry fails its CRC check');
  return data;
}

const field = (value: string, length: number) => {
  const b = Buffer.alloc(length);
  b.write(value, 'utf8');
  return b;
};
const octal = (n: number, length: number) => field(`${n.toString(8).padStart(length - 1, '0')}`, length);

/** A ustar archive holding one regular file. */
export function tarOne(name: string, data: Buffer): Buffer {
  const header = Buffer.concat([
    field(Buffer.from(name, 'utf8').subarray(0, 99).toString('utf8'), 100),
    octal(0o644, 8),
    octal(0, 8),
    octal(0, 8),
    octal(data.length, 12),
    octal(0, 12),
    Buffer.from('        '),
    Buffer.from('0'),
    Buffer.alloc(100),
    Buffer.from('ustar\u000000', 'latin1'),
    field('root', 32),
    field('root', 32),
    Buffer.alloc(8 + 8 + 155 + 12),
  ]);
  const sum = header.reduce((s, b) => s + b, 0);
  field(`${sum.toString(8).padStart(6, '0')}\u0000 `, 8).copy(header, 148);
  const pad = (512 - (data.length % 512)) % 512;
  return Buffer.concat([header, data, Buffer.alloc(pad), Buffer.alloc(1024)]);
}

/** The first regular file of a tar archive, each header's checksum checked. */
export function untarOne(tar: Buffer, maxBytes: number): Buffer {
  for (let pos = 0; pos + 512 <= tar.length; ) {
    const header = tar.subarray(pos, pos + 512);
    if (header.every((b) => b === 0)) break;
    const stored = parseInt(header.subarray(148, 156).toString('latin1').replace(/\0.*$/s, '').trim(), 8);
    const sum = header.reduce((s, b, i) => s + (i >= 148 && i < 156 ? 32 : b), 0);
    if (stored !== sum) throw new Error('a tar header fails its checksum');
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '0' || type === '\0') {
      if (size > maxBytes || pos + 512 + size > tar.length) throw new Error('the tar entry is truncated or too large');
      return Buffer.from(tar.subarray(pos + 512, pos + 512 + size));
    }
    pos += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('the tar archive holds no file');
}
