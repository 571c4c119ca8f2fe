/**
 * IPv4 and IPv6 fragment reassembly as far as conversations need it: Wireshark (with its default
 * ip.defragment / ipv6.defragment) dissects TCP/UDP once, in the frame that completes a datagram,
 * with the transport header taken from the first fragment. We keep that header (and a little
 * payload for the info text) and the byte ranges seen; never the whole datagram.
 */
import type { Frame } from './decode';

/** Datagrams still waiting for fragments; the oldest is dropped beyond this. */
const MAX_PENDING = 4096;
/** Bytes of the first fragment kept (transport header and the start of the payload). */
const KEEP = 512;

interface Pending {
  first: Buffer | null;
  /** Total length once the last fragment is seen, else -1. */
  total: number;
  /** Covered byte ranges [start, end) sorted and merged, flattened. */
  ranges: number[];
  frames: number;
}

export class Reassembler {
  private pending = new Map<string, Pending>();
  /** Datagrams given up (pushed out by MAX_PENDING). */
  dropped = 0;
  completed = 0;
  /** Datagrams completed per key, so a datagram has a stable id across passes over one capture. */
  private generations = new Map<string, number>();
  /** Id of the datagram the last added fragment belongs to (key and generation). */
  lastDatagram = '';

  private key(f: Frame): string {
    const b = f.buf;
    const n = f.ipVersion === 6 ? 16 : 4;
    return `${f.ipVersion}:${f.proto}:${f.fragId}:${b.toString('hex', f.srcOff, f.srcOff + n)}:${b.toString('hex', f.dstOff, f.dstOff + n)}`;
  }

  /**
   * Adds the fragment in f (kind Fragment). When it completes its datagram, returns the kept start
   * of the transport data (header first) and sets f.l4Len to the datagram's transport length;
   * otherwise returns null.
   */
  add(f: Frame): Buffer | null {
    const k = this.key(f);
    this.lastDatagram = `${k}#${this.generations.get(k) ?? 0}`;
    let p = this.pending.get(k);
    if (!p) {
      if (this.pending.size >= MAX_PENDING) {
        const oldest = this.pending.keys().next().value;
        if (oldest !== undefined) this.pending.delete(oldest);
        this.dropped++;
      }
      p = { first: null, total: -1, ranges: [], frames: 0 };
      this.pending.set(k, p);
    }
    p.frames++;
    const start = f.fragOffset;
    const end = start + f.l4Len;
    if (start === 0 && !p.first) {
      const cap = Math.max(0, Math.min(f.l4Len, f.capEnd - f.l4Off, KEEP));
      p.first = Buffer.from(f.buf.subarray(f.l4Off, f.l4Off + cap));
    }
    if (!f.fragMore) p.total = end;
    if (end > start) insertRange(p.ranges, start, end);
    if (p.total >= 0 && p.first && p.ranges.length === 2 && p.ranges[0] === 0 && p.ranges[1]! >= p.total) {
      this.pending.delete(k);
      this.completed++;
      this.generations.set(k, (this.generations.get(k) ?? 0) + 1);
      f.l4Len = p.total;
      return p.first;
    }
    return null;
  }

  /** Datagrams left incomplete (call at the end). */
  get incomplete(): number {
    return this.pending.size + this.dropped;
  }
}

function insertRange(r: number[], s: number, e: number): void {
  const out: number[] = [];
  let ns = s;
  let ne = e;
  let placed = false;
  for (let i = 0; i < r.length; i += 2) {
    const a = r[i]!;
    const b = r[i + 1]!;
    if (b < ns) out.push(a, b);
    else if (a > ne) {
      if (!placed) {
        out.push(ns, ne);
        placed = true;
      }
      out.push(a, b);
    } else {
      ns = Math.min(ns, a);
      ne = Math.max(ne, b);
    }
  }
  if (!placed) out.push(ns, ne);
  r.length = 0;
  r.push(...out);
}
