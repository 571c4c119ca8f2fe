/**
 * Writes the processed capture an Action replays: a classic little-endian pcap of Ethernet frames
 * holding only the frames of the chosen conversations, with
 * - VLAN tags stripped, and an Ethernet header synthesized for frames captured without one (raw IP,
 *   SLL, SLL2, null/loopback): MACs 02:00:<last four bytes of the IP address>, or the multicast /
 *   broadcast MAC a multicast / broadcast destination needs;
 * - addresses anonymized on request (see anonymize.ts) with the IPv4 header checksum and the
 *   TCP/UDP checksums recomputed (fully when the segment was captured whole, else by RFC 1624's
 *   incremental update, which keeps a correct checksum correct);
 * - microsecond time stamps, or nanosecond ones when the source had finer resolution.
 *
 * Reads the source twice when it holds IP fragments (the first pass learns which conversation each
 * fragmented datagram belongs to, so all its fragments are kept with it), else once. Also writes an
 * index of record offsets (8 bytes per packet, little-endian doubles) for the Packet View.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { CaptureAnalyzer } from './analyze';
import { Anonymizer, type AddressMapping } from './anonymize';
import { incrementalUpdate, ipv4HeaderChecksum, l4Checksum, onesSum, pseudoSumV4, pseudoSumV6 } from './checksum';
import { Kind, type Frame } from './decode';
import type { PacketRecord } from './reader';

export interface TransformOptions {
  /** Rows (conversation indices) whose frames are kept; null keeps every conversation frame. */
  keepRows: ReadonlySet<number> | null;
  anonymizeIp: boolean;
  anonymizeMac: boolean;
  /** Mapping already shown to the user (kept, then extended in order of appearance). */
  mapping?: AddressMapping;
  /** Write nanosecond time stamps. */
  nanosecond: boolean;
  /** Whether the source holds IP fragments (then it is read twice). */
  hasFragments: boolean;
  /** Progress callback with bytes read of the current pass. */
  onProgress?: (pass: number, bytes: number) => void;
}

export interface TransformResult {
  packets: number;
  bytes: number;
  mapping: AddressMapping;
  conversationRows: number;
}

const OUT_CHUNK = 1 << 20;

class OutputBuffer {
  buf = Buffer.allocUnsafe(OUT_CHUNK);
  pos = 0;
  written = 0;
  constructor(private readonly out: fs.WriteStream) {}
  reserve(n: number): number {
    if (this.pos + n > this.buf.length) {
      this.flushSync();
      if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }
  /** Hands the filled part to the stream (the next chunk gets a fresh buffer). */
  flushSync(): void {
    if (this.pos === 0) return;
    this.out.write(this.buf.subarray(0, this.pos));
    this.written += this.pos;
    this.buf = Buffer.allocUnsafe(OUT_CHUNK);
    this.pos = 0;
  }
  async drain(): Promise<void> {
    if (this.out.writableNeedDrain) await once(this.out, 'drain');
  }
}

async function readPasses(file: string, analyzer: CaptureAnalyzer, onChunk: (bytes: number) => Promise<void> | void): Promise<void> {
  const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  for await (const chunk of input) {
    analyzer.push(chunk as Buffer);
    await onChunk(analyzer.bytesRead);
    if (!analyzer.wantsMore) break;
  }
  input.destroy();
}

export async function writeProcessedCapture(inputPath: string, outputPath: string, indexPath: string, opts: TransformOptions): Promise<TransformResult> {
  // Pass 1: which conversation each fragmented datagram belongs to.
  const datagramRows = new Map<string, number>();
  if (opts.hasFragments) {
    const a1: CaptureAnalyzer = new CaptureAnalyzer((_rec, f, row) => {
      if (f.isFragment && row >= 0) datagramRows.set(a1.lastDatagram, row);
    });
    await readPasses(inputPath, a1, (b) => opts.onProgress?.(1, b));
    a1.end();
  }

  const out = fs.createWriteStream(outputPath);
  const idx = fs.createWriteStream(indexPath);
  const ob = new OutputBuffer(out);
  const ib = new OutputBuffer(idx);
  const anon = new Anonymizer(opts.mapping);
  const nano = opts.nanosecond;
  let packets = 0;
  let headerDone = false;

  const writeFrame = (rec: PacketRecord, f: Frame) => {
    if (!headerDone) {
      const h = ob.reserve(24);
      const b = ob.buf;
      b.writeUInt32LE(nano ? 0xa1b23c4d : 0xa1b2c3d4, h);
      b.writeUInt16LE(2, h + 4);
      b.writeUInt16LE(4, h + 6);
      b.writeUInt32LE(0, h + 8);
      b.writeUInt32LE(0, h + 12);
      b.writeUInt32LE(262144, h + 16);
      b.writeUInt32LE(1, h + 20);
      headerDone = true;
    }
    const src = rec.buf;
    const netStart = f.ipOff;
    const capEnd = rec.off + rec.caplen;
    const netCap = capEnd - netStart;
    const l2Old = netStart - rec.off;
    // The wire length as the new link layer makes it (a corrupt huge one stays within the field).
    const origLen = Math.min(0xffffffff, Math.max(14 + netCap, rec.origLen - l2Old + 14));
    const caplen = 14 + netCap;
    const recordAt = ob.written + ob.pos;
    const at = ob.reserve(16 + caplen);
    const b = ob.buf;
    b.writeUInt32LE(rec.sec >>> 0, at);
    b.writeUInt32LE(nano ? rec.nsec : Math.floor(rec.nsec / 1000), at + 4);
    b.writeUInt32LE(caplen, at + 8);
    b.writeUInt32LE(origLen, at + 12);
    const eth = at + 16;
    const ip = eth + 14;
    src.copy(b, ip, netStart, capEnd);
    const v6 = f.ipVersion === 6;
    // Addresses first (the synthesized MACs follow the output addresses).
    let oldSum = 0;
    let newSum = 0;
    const so = ip + (f.srcOff - netStart);
    const dOff = ip + (f.dstOff - netStart);
    const alen = v6 ? 16 : 4;
    if (opts.anonymizeIp) {
      oldSum = onesSum(b, so, so + alen, onesSum(b, dOff, dOff + alen));
      if (v6) {
        anon.rewriteV6(b, so);
        anon.rewriteV6(b, dOff);
      } else {
        anon.rewriteV4(b, so);
        anon.rewriteV4(b, dOff);
      }
      newSum = onesSum(b, so, so + alen, onesSum(b, dOff, dOff + alen));
      if (!v6) b.writeUInt16BE(ipv4HeaderChecksum(b, ip, f.ipHeaderLen), ip + 10);
      if ((f.proto === 6 || f.proto === 17) && (!f.isFragment || f.fragOffset === 0)) {
        const l4 = ip + (f.l4Off - netStart);
        const field = f.proto === 6 ? 16 : 6;
        const l4Cap = ip + netCap - l4;
        const whole = !f.isFragment && f.ipEnd <= capEnd && l4Cap >= f.l4Len;
        if (l4Cap >= field + 2) {
          const old = b.readUInt16BE(l4 + field);
          let c: number;
          if (f.proto === 17 && !v6 && old === 0) c = 0;
          else if (whole) {
            const pseudo = v6 ? pseudoSumV6(b, so, f.proto, f.l4Len) : pseudoSumV4(b, so, f.proto, f.l4Len);
            c = l4Checksum(b, l4, f.l4Len, field, pseudo);
            if (c === 0 && f.proto === 17) c = 0xffff;
          } else {
            c = incrementalUpdate(old, oldSum, newSum);
            if (c === 0 && f.proto === 17) c = 0xffff;
          }
          b.writeUInt16BE(c, l4 + field);
        }
      }
    }
    // Ethernet header: the original MACs, or synthesized ones.
    if (f.macOff >= 0) {
      src.copy(b, eth, f.macOff, f.macOff + 12);
    } else {
      synthMac(b, eth, dOff, v6, true);
      synthMac(b, eth + 6, so, v6, false);
    }
    b.writeUInt16BE(v6 ? 0x86dd : 0x0800, eth + 12);
    if (opts.anonymizeMac) {
      anon.rewriteMac(b, eth);
      anon.rewriteMac(b, eth + 6);
    }
    const ia = ib.reserve(8);
    ib.buf.writeDoubleLE(recordAt, ia);
    packets++;
  };

  const keep = opts.keepRows;
  const a2 = new CaptureAnalyzer((rec, f, row) => {
    let r = row;
    if (f.isFragment && r < 0) r = datagramRows.get(a2.lastDatagram) ?? -1;
    if (r < 0 || (keep !== null && !keep.has(r))) return;
    if (f.ipOff < 0 || (f.kind !== Kind.Tcp && f.kind !== Kind.Udp && f.kind !== Kind.Fragment)) return;
    writeFrame(rec, f);
  });
  try {
    await readPasses(inputPath, a2, async (bytes) => {
      opts.onProgress?.(2, bytes);
      if (ob.pos > OUT_CHUNK / 2) ob.flushSync();
      if (ib.pos > OUT_CHUNK / 2) ib.flushSync();
      await ob.drain();
      await ib.drain();
    });
    const analysis = a2.end();
    if (!headerDone) {
      // No packet kept: still a valid (empty) capture.
      const h = ob.reserve(24);
      const b = ob.buf;
      b.writeUInt32LE(nano ? 0xa1b23c4d : 0xa1b2c3d4, h);
      b.writeUInt16LE(2, h + 4);
      b.writeUInt16LE(4, h + 6);
      b.fill(0, h + 8, h + 16);
      b.writeUInt32LE(262144, h + 16);
      b.writeUInt32LE(1, h + 20);
    }
    ob.flushSync();
    ib.flushSync();
    out.end();
    idx.end();
    await Promise.all([once(out, 'finish'), once(idx, 'finish')]);
    return { packets, bytes: ob.written, mapping: anon.mapping, conversationRows: analysis.rows.length };
  } catch (e) {
    out.destroy();
    idx.destroy();
    throw e;
  }
}

/** A MAC for an address: multicast/broadcast ones as IP maps them, else 02:00 + the address's last 4 bytes. */
function synthMac(b: Buffer, at: number, addrOff: number, v6: boolean, isDst: boolean): void {
  if (isDst && v6 && b[addrOff] === 0xff) {
    b[at] = 0x33;
    b[at + 1] = 0x33;
    b.copy(b, at + 2, addrOff + 12, addrOff + 16);
    return;
  }
  if (isDst && !v6) {
    const a = b[addrOff]!;
    if (a === 255 && b[addrOff + 1] === 255 && b[addrOff + 2] === 255 && b[addrOff + 3] === 255) {
      b.fill(0xff, at, at + 6);
      return;
    }
    if (a >= 224 && a <= 239) {
      b[at] = 0x01;
      b[at + 1] = 0x00;
      b[at + 2] = 0x5e;
      b[at + 3] = b[addrOff + 1]! & 0x7f;
      b[at + 4] = b[addrOff + 2]!;
      b[at + 5] = b[addrOff + 3]!;
      return;
    }
  }
  b[at] = 0x02;
  b[at + 1] = 0x00;
  b.copy(b, at + 2, addrOff + (v6 ? 12 : 0), addrOff + (v6 ? 16 : 4));
}
