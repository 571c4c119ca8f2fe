/**
 * TCP and UDP conversations counted as tshark 4.0 counts them (`-z conv,tcp -z conv,udp`):
 *
 * - one row per TCP stream or UDP conversation; a TCP stream is split when a SYN (without ACK)
 *   arrives whose sequence number differs from the base sequence number already known for its
 *   direction (port reuse); the base is the first segment's sequence (SYN: seq, else seq - 1), and
 *   the reverse direction's base is learnt from the first ACK (ack - 1);
 * - address A is the source of the row's first counted frame; "A to B" / "B to A" frames and bytes,
 *   bytes being the frame's length on the wire;
 * - start and stop are times relative to the capture's first frame (any frame);
 * - rows are listed by total frames, most first, ties in order of appearance.
 *
 * Plus what the product needs: TCP sequence gaps (missed bytes), flags seen, and a short info text
 * taken from the first payloads (HTTP request line, TLS SNI, DNS query).
 *
 * Storage is struct-of-arrays in typed arrays with an open-addressing hash of the endpoint pair, so
 * a packet costs no allocation.
 *
 * Size: over 400 lines on purpose: the TCP stream rules, the UDP rules and the info texts all update one
 * conversation table in one pass, and must match tshark together (the comparison tests read it so).
 */
import { ipv6Text, macText, type Frame } from './decode';
import { payloadInfo } from './info';

export const TCP_FIN = 0x01;
export const TCP_SYN = 0x02;
export const TCP_RST = 0x04;
export const TCP_ACK = 0x10;

const KEY_WORDS = 10;
/** Row flag bit (beside the TCP flags seen): the row's MAC addresses are known. */
const HAS_MACS = 16;

function grow<T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(a: T, size: number): T {
  if (a.length >= size) return a;
  let n = a.length || 16;
  while (n < size) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/** One conversation row, as read out at the end. */
export interface ConversationRow {
  /** 0-based row number in order of appearance. */
  index: number;
  protocol: 'tcp' | 'udp';
  ipVersion: 4 | 6;
  addressA: string;
  portA: number;
  addressB: string;
  portB: number;
  framesAtoB: number;
  bytesAtoB: number;
  framesBtoA: number;
  bytesBtoA: number;
  /** Start and stop relative to the first frame: [seconds, nanoseconds] (same sign). */
  relStart: [number, number];
  relStop: [number, number];
  /** Absolute start time. */
  startSec: number;
  startNsec: number;
  firstFrame: number;
  missedBytes: number;
  /** TCP flags seen: SYN, SYN+ACK, FIN, RST. */
  sawSyn: boolean;
  sawSynAck: boolean;
  sawFin: boolean;
  sawRst: boolean;
  info: string | null;
  /** MAC addresses of A and B from the first frame (Ethernet only). */
  macA: string | null;
  macB: string | null;
}

export class ConversationTracker {
  // Flows: an endpoint pair (protocol, addresses, ports), in canonical order (low endpoint first).
  private keys = new Uint32Array(0);
  private flowStream = new Int32Array(0);
  private flowCount = 0;
  private table = new Int32Array(1024).fill(-1);
  private mask = 1023;

  // Streams: a TCP stream or a UDP conversation of a flow.
  private streamFlow = new Int32Array(0);
  private streamRow = new Int32Array(0);
  /** Per stream and direction (0: low -> high, 1: high -> low). */
  private baseSeq = new Uint32Array(0);
  private baseSet = new Uint8Array(0);
  private nextSeq = new Uint32Array(0);
  private nextSet = new Uint8Array(0);
  private streamCount = 0;

  // Rows (what tshark lists).
  private rowStream = new Int32Array(0);
  /** 1 when A is the flow's low endpoint. */
  private rowALow = new Uint8Array(0);
  private framesAB = new Float64Array(0);
  private framesBA = new Float64Array(0);
  private bytesAB = new Float64Array(0);
  private bytesBA = new Float64Array(0);
  private startS = new Float64Array(0);
  private startN = new Int32Array(0);
  private stopS = new Float64Array(0);
  private stopN = new Int32Array(0);
  private absS = new Float64Array(0);
  private absN = new Int32Array(0);
  private firstFrame = new Float64Array(0);
  private missed = new Float64Array(0);
  private flags = new Uint8Array(0);
  private inspected = new Uint8Array(0);
  private info: (string | null)[] = [];
  /** Per row, the first frame's destination and source MAC (12 bytes; when flags has HAS_MACS). */
  private macBytes = new Uint8Array(0);
  private rowCount = 0;

  // Time reference: the first frame of the capture.
  private refSet = false;
  private refS = 0;
  private refN = 0;

  /** Frames counted into rows. */
  counted = 0;

  get rows(): number {
    return this.rowCount;
  }

  /** Every frame of the capture must pass through here first (it sets the time reference). */
  frameTime(sec: number, nsec: number): void {
    if (!this.refSet) {
      this.refSet = true;
      this.refS = sec;
      this.refN = nsec;
    }
  }

  /**
   * Counts a decoded TCP/UDP frame (f.kind Tcp or Udp), or only updates TCP stream state for a TCP
   * segment Wireshark would not count (`count` false). Returns the row index, or -1.
   */
  add(f: Frame, l4Buf: Buffer, count: boolean, sec: number, nsec: number, origLen: number, frame: number, macSrcOff: number): number {
    const isTcp = f.proto === 6;
    const v6 = f.ipVersion === 6;
    const buf = f.buf;
    // Canonical order of the two endpoints.
    let srcLow: boolean;
    const so = f.srcOff;
    const dOff = f.finalDstOff;
    const dBuf = f.dstBuf;
    const alen = v6 ? 16 : 4;
    let cmp = 0;
    for (let i = 0; i < alen; i++) {
      const d = buf[so + i]! - dBuf[dOff + i]!;
      if (d !== 0) {
        cmp = d;
        break;
      }
    }
    if (cmp !== 0) srcLow = cmp < 0;
    else srcLow = f.sport <= f.dport;
    const flow = this.findFlow(f, isTcp, srcLow);
    const dir = srcLow ? 0 : 1;
    let stream = this.flowStream[flow]!;
    if (stream < 0) stream = this.newStream(flow);
    if (isTcp) {
      const fl = f.tcpFlags;
      const bi = stream * 2 + dir;
      if ((fl & (TCP_SYN | TCP_ACK)) === TCP_SYN && this.baseSet[bi] && f.seq !== this.baseSeq[bi]) {
        stream = this.newStream(flow);
      }
      if (f.l4Len >= f.tcpHeaderLen) {
        const b = stream * 2 + dir;
        const r = stream * 2 + (1 - dir);
        if (!this.baseSet[b]) {
          this.baseSeq[b] = fl & TCP_SYN ? f.seq : (f.seq - 1) >>> 0;
          this.baseSet[b] = 1;
        }
        if (!this.baseSet[r] && fl & TCP_ACK) {
          this.baseSeq[r] = (f.ack - 1) >>> 0;
          this.baseSet[r] = 1;
        }
      }
    }
    if (!count) return -1;
    this.counted++;
    let row = this.streamRow[stream]!;
    if (row < 0) row = this.newRow(stream, srcLow, sec, nsec, frame, f, macSrcOff);
    const fromA = (this.rowALow[row] === 1) === srcLow;
    if (fromA) {
      this.framesAB[row]! += 1;
      this.bytesAB[row]! += origLen;
    } else {
      this.framesBA[row]! += 1;
      this.bytesBA[row]! += origLen;
    }
    const ds = sec - this.refS;
    const dn = nsec - this.refN;
    const b = borrow(ds, dn);
    const rs = ds - b;
    const rn = dn + b * 1e9;
    // Later than the row's stop, or earlier than its start (times compared as (s * 1e9 + ns), whose
    // sign is exact), stored by selects rather than branches for the same reason.
    const stopS = this.stopS[row]!;
    const stopN = this.stopN[row]!;
    const startS = this.startS[row]!;
    const startN = this.startN[row]!;
    const later = (rs - stopS) * 1e9 + (rn - stopN) > 0;
    const earlier = (rs - startS) * 1e9 + (rn - startN) < 0;
    this.stopS[row] = later ? rs : stopS;
    this.stopN[row] = later ? rn : stopN;
    this.startS[row] = earlier ? rs : startS;
    this.startN[row] = earlier ? rn : startN;
    this.absS[row] = earlier ? sec : this.absS[row]!;
    this.absN[row] = earlier ? nsec : this.absN[row]!;
    if (isTcp) this.tcpState(row, stream, dir, f);
    if (f.payloadLen > 0 && this.inspected[row]! < 4 && this.info[row] === null) {
      this.inspected[row]! += 1;
      const capEnd = l4Buf === f.buf ? f.capEnd : l4Buf.length;
      const n = Math.min(f.payloadLen, capEnd - f.payloadOff);
      if (n > 0) this.info[row] = payloadInfo(l4Buf, f.payloadOff, n, isTcp, f.sport, f.dport);
    }
    return row;
  }

  private tcpState(row: number, stream: number, dir: number, f: Frame): void {
    const fl = f.tcpFlags;
    let bits = this.flags[row]!;
    if (fl & TCP_SYN) bits |= fl & TCP_ACK ? 2 : 1;
    if (fl & TCP_FIN) bits |= 4;
    if (fl & TCP_RST) bits |= 8;
    this.flags[row] = bits;
    // Missed bytes: sequence space skipped over in a direction (gaps in what the capture saw).
    const i = stream * 2 + dir;
    const adv = f.payloadLen + (fl & TCP_SYN ? 1 : 0) + (fl & TCP_FIN ? 1 : 0);
    if (fl & TCP_RST && adv === 0) return;
    const end = (f.seq + adv) >>> 0;
    if (!this.nextSet[i]) {
      this.nextSet[i] = 1;
      this.nextSeq[i] = end;
      return;
    }
    const expected = this.nextSeq[i]!;
    const gap = (f.seq - expected) | 0;
    if (gap > 0 && gap < 0x40000000) this.missed[row]! += gap;
    if (((end - expected) | 0) > 0) this.nextSeq[i] = end;
  }

  private findFlow(f: Frame, isTcp: boolean, srcLow: boolean): number {
    const v6 = f.ipVersion === 6;
    const lo = srcLow ? f.srcOff : f.finalDstOff;
    const hi = srcLow ? f.finalDstOff : f.srcOff;
    // The final destination may sit outside the frame (an RPL routing header's, rebuilt).
    const lb = srcLow ? f.buf : f.dstBuf;
    const hb = srcLow ? f.dstBuf : f.buf;
    const plo = srcLow ? f.sport : f.dport;
    const phi = srcLow ? f.dport : f.sport;
    const meta = (v6 ? 0x600 : 0x400) | (isTcp ? 6 : 17);
    const ports = ((plo << 16) | phi) >>> 0;
    let a0: number, a1 = 0, a2 = 0, a3 = 0, b0: number, b1 = 0, b2 = 0, b3 = 0;
    if (v6) {
      a0 = lb.readUInt32BE(lo);
      a1 = lb.readUInt32BE(lo + 4);
      a2 = lb.readUInt32BE(lo + 8);
      a3 = lb.readUInt32BE(lo + 12);
      b0 = hb.readUInt32BE(hi);
      b1 = hb.readUInt32BE(hi + 4);
      b2 = hb.readUInt32BE(hi + 8);
      b3 = hb.readUInt32BE(hi + 12);
    } else {
      a0 = ((lb[lo]! << 24) | (lb[lo + 1]! << 16) | (lb[lo + 2]! << 8) | lb[lo + 3]!) >>> 0;
      b0 = ((hb[hi]! << 24) | (hb[hi + 1]! << 16) | (hb[hi + 2]! << 8) | hb[hi + 3]!) >>> 0;
    }
    let h = Math.imul(meta ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ ports, 0xc2b2ae35);
    h = Math.imul(h ^ a0, 0x85ebca6b);
    h = Math.imul(h ^ b0, 0xc2b2ae35);
    if (v6) {
      h = Math.imul(h ^ a1, 0x85ebca6b);
      h = Math.imul(h ^ a2, 0xc2b2ae35);
      h = Math.imul(h ^ a3, 0x85ebca6b);
      h = Math.imul(h ^ b1, 0xc2b2ae35);
      h = Math.imul(h ^ b2, 0x85ebca6b);
      h = Math.imul(h ^ b3, 0xc2b2ae35);
    }
    h ^= h >>> 15;
    const keys = this.keys;
    let slot = h & this.mask;
    for (;;) {
      const id = this.table[slot]!;
      if (id < 0) break;
      const k = id * KEY_WORDS;
      if (
        keys[k] === meta &&
        keys[k + 1] === ports &&
        keys[k + 2] === a0 &&
        keys[k + 6] === b0 &&
        keys[k + 3] === a1 &&
        keys[k + 4] === a2 &&
        keys[k + 5] === a3 &&
        keys[k + 7] === b1 &&
        keys[k + 8] === b2 &&
        keys[k + 9] === b3
      ) {
        return id;
      }
      slot = (slot + 1) & this.mask;
    }
    return this.insertFlow(slot, meta, ports, a0, a1, a2, a3, b0, b1, b2, b3);
  }

  /** A new flow in the free hash slot `slot` (out of the per-packet path). */
  private insertFlow(slot: number, meta: number, ports: number, a0: number, a1: number, a2: number, a3: number, b0: number, b1: number, b2: number, b3: number): number {
    const id = this.flowCount++;
    if (this.flowCount > this.flowStream.length) {
      this.flowStream = grow(this.flowStream, this.flowCount);
      this.keys = grow(this.keys, this.flowStream.length * KEY_WORDS);
    }
    const k = id * KEY_WORDS;
    const ks = this.keys;
    ks[k] = meta;
    ks[k + 1] = ports;
    ks[k + 2] = a0;
    ks[k + 3] = a1;
    ks[k + 4] = a2;
    ks[k + 5] = a3;
    ks[k + 6] = b0;
    ks[k + 7] = b1;
    ks[k + 8] = b2;
    ks[k + 9] = b3;
    this.flowStream[id] = -1;
    this.table[slot] = id;
    if (this.flowCount * 2 > this.mask) this.rehash();
    return id;
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    const table = new Int32Array(size).fill(-1);
    const mask = size - 1;
    const keys = this.keys;
    for (let id = 0; id < this.flowCount; id++) {
      const k = id * KEY_WORDS;
      const v6 = keys[k]! >> 8 === 6;
      let h = Math.imul(keys[k]! ^ 0x9e3779b9, 0x85ebca6b);
      h = Math.imul(h ^ keys[k + 1]!, 0xc2b2ae35);
      h = Math.imul(h ^ keys[k + 2]!, 0x85ebca6b);
      h = Math.imul(h ^ keys[k + 6]!, 0xc2b2ae35);
      if (v6) {
        h = Math.imul(h ^ keys[k + 3]!, 0x85ebca6b);
        h = Math.imul(h ^ keys[k + 4]!, 0xc2b2ae35);
        h = Math.imul(h ^ keys[k + 5]!, 0x85ebca6b);
        h = Math.imul(h ^ keys[k + 7]!, 0xc2b2ae35);
        h = Math.imul(h ^ keys[k + 8]!, 0x85ebca6b);
        h = Math.imul(h ^ keys[k + 9]!, 0xc2b2ae35);
      }
      h ^= h >>> 15;
      let slot = h & mask;
      while (table[slot]! >= 0) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
    this.mask = mask;
  }

  private newStream(flow: number): number {
    const s = this.streamCount++;
    if (this.streamCount > this.streamFlow.length) this.reserveStreams(this.streamCount);
    this.streamFlow[s] = flow;
    this.streamRow[s] = -1;
    this.baseSet[s * 2] = 0;
    this.baseSet[s * 2 + 1] = 0;
    this.nextSet[s * 2] = 0;
    this.nextSet[s * 2 + 1] = 0;
    this.flowStream[flow] = s;
    return s;
  }

  /** Room for n streams (grown by doubling, out of the per-packet path). */
  private reserveStreams(n: number): void {
    this.streamFlow = grow(this.streamFlow, n);
    const cap = this.streamFlow.length;
    this.streamRow = grow(this.streamRow, cap);
    this.baseSeq = grow(this.baseSeq, cap * 2);
    this.baseSet = grow(this.baseSet, cap * 2);
    this.nextSeq = grow(this.nextSeq, cap * 2);
    this.nextSet = grow(this.nextSet, cap * 2);
  }

  /** Room for n rows (grown by doubling, out of the per-packet path). */
  private reserveRows(n: number): void {
    this.rowStream = grow(this.rowStream, n);
    const cap = this.rowStream.length;
    this.rowALow = grow(this.rowALow, cap);
    this.framesAB = grow(this.framesAB, cap);
    this.framesBA = grow(this.framesBA, cap);
    this.bytesAB = grow(this.bytesAB, cap);
    this.bytesBA = grow(this.bytesBA, cap);
    this.startS = grow(this.startS, cap);
    this.startN = grow(this.startN, cap);
    this.stopS = grow(this.stopS, cap);
    this.stopN = grow(this.stopN, cap);
    this.absS = grow(this.absS, cap);
    this.absN = grow(this.absN, cap);
    this.firstFrame = grow(this.firstFrame, cap);
    this.missed = grow(this.missed, cap);
    this.flags = grow(this.flags, cap);
    this.inspected = grow(this.inspected, cap);
    this.macBytes = grow(this.macBytes, cap * 12);
  }

  private newRow(stream: number, srcLow: boolean, sec: number, nsec: number, frame: number, f: Frame, macSrcOff: number): number {
    const r = this.rowCount++;
    if (this.rowCount > this.rowStream.length) this.reserveRows(this.rowCount);
    this.rowStream[r] = stream;
    this.rowALow[r] = srcLow ? 1 : 0;
    this.framesAB[r] = 0;
    this.framesBA[r] = 0;
    this.bytesAB[r] = 0;
    this.bytesBA[r] = 0;
    const ds = sec - this.refS;
    const dn = nsec - this.refN;
    const b = borrow(ds, dn);
    const rs = ds - b;
    const rn = dn + b * 1e9;
    this.startS[r] = rs;
    this.startN[r] = rn;
    this.stopS[r] = rs;
    this.stopN[r] = rn;
    this.absS[r] = sec;
    this.absN[r] = nsec;
    this.firstFrame[r] = frame;
    this.missed[r] = 0;
    this.inspected[r] = 0;
    this.info.push(null);
    // The frame's MACs (Ethernet: destination then source), as text only when the rows are read.
    this.flags[r] = macSrcOff >= 0 ? HAS_MACS : 0;
    if (macSrcOff >= 0) this.macBytes.set(f.buf.subarray(macSrcOff, macSrcOff + 12), r * 12);
    this.streamRow[stream] = r;
    return r;
  }

  /** The rows in order of appearance. */
  readRows(): ConversationRow[] {
    const out: ConversationRow[] = [];
    // Hosts recur across conversations: each IPv4 address is written as text once.
    const v4Texts = new Map<number, string>();
    const addrText = (k: number, v6: boolean): string => {
      if (v6) return wordsToText(this.keys, k, true);
      const w = this.keys[k]!;
      let t = v4Texts.get(w);
      if (t === undefined) {
        t = wordsToText(this.keys, k, false);
        v4Texts.set(w, t);
      }
      return t;
    };
    for (let r = 0; r < this.rowCount; r++) {
      const stream = this.rowStream[r]!;
      const flow = this.streamFlow[stream]!;
      const k = flow * KEY_WORDS;
      const meta = this.keys[k]!;
      const v6 = meta >> 8 === 6;
      const ports = this.keys[k + 1]!;
      const lowAddr = addrText(k + 2, v6);
      const highAddr = addrText(k + 6, v6);
      const aLow = this.rowALow[r] === 1;
      const bits = this.flags[r]!;
      out.push({
        index: r,
        protocol: (meta & 0xff) === 6 ? 'tcp' : 'udp',
        ipVersion: v6 ? 6 : 4,
        addressA: aLow ? lowAddr : highAddr,
        portA: aLow ? ports >>> 16 : ports & 0xffff,
        addressB: aLow ? highAddr : lowAddr,
        portB: aLow ? ports & 0xffff : ports >>> 16,
        framesAtoB: this.framesAB[r]!,
        bytesAtoB: this.bytesAB[r]!,
        framesBtoA: this.framesBA[r]!,
        bytesBtoA: this.bytesBA[r]!,
        relStart: [this.startS[r]!, this.startN[r]!],
        relStop: [this.stopS[r]!, this.stopN[r]!],
        startSec: this.absS[r]!,
        startNsec: this.absN[r]!,
        firstFrame: this.firstFrame[r]!,
        missedBytes: this.missed[r]!,
        sawSyn: (bits & 1) !== 0,
        sawSynAck: (bits & 2) !== 0,
        sawFin: (bits & 4) !== 0,
        sawRst: (bits & 8) !== 0,
        info: this.info[r] ?? null,
        macA: bits & HAS_MACS ? macText(this.macBytes, r * 12 + 6) : null,
        macB: bits & HAS_MACS ? macText(this.macBytes, r * 12) : null,
      });
    }
    return out;
  }
}

/**
 * A relative time (ds seconds, dn nanoseconds) is normalized as Wireshark's nstime_delta, to seconds
 * and nanoseconds of one sign: (ds - borrow, dn + borrow * 1e9). Without branches, so that every
 * packet takes the same path and V8 never meets an untried one after compiling.
 */
function borrow(ds: number, dn: number): number {
  return Math.trunc((Math.sign(ds) - Math.sign(dn)) / 2);
}

const addrBytes = new Uint8Array(16);

function wordsToText(keys: Uint32Array, k: number, v6: boolean): string {
  const w0 = keys[k]!;
  if (!v6) return `${w0 >>> 24}.${(w0 >>> 16) & 255}.${(w0 >>> 8) & 255}.${w0 & 255}`;
  const b = addrBytes;
  for (let i = 0; i < 4; i++) {
    const w = keys[k + i]!;
    b[i * 4] = w >>> 24;
    b[i * 4 + 1] = (w >>> 16) & 255;
    b[i * 4 + 2] = (w >>> 8) & 255;
    b[i * 4 + 3] = w & 255;
  }
  return ipv6Text(b, 0);
}
