/**
 * Consistent address replacement for anonymized captures: the same original always gets the same
 * replacement, assigned in order of first appearance, from documented private ranges.
 *
 * - IPv4 -> 10.0.0.0/8, in order: 10.0.0.1, 10.0.0.2, ... (host parts .0 and .255 are skipped).
 *   An address ending in .255 (treated as a broadcast, as the spec's warning does) maps to
 *   10.255.x.255 so it still reads as one. 0.0.0.0, 255.255.255.255 and multicast 224.0.0.0/4
 *   are kept: they identify no one and replay depends on them.
 * - IPv6 -> fd00::/64 (unique local), in order: fd00::1, fd00::2, ...; ::, ::1 and multicast ff00::/8 are kept.
 * - MAC -> 02:00:00:00:00:01, 02:00:00:00:00:02, ... (locally administered, unicast); broadcast and
 *   multicast MACs (group bit set) are kept.
 */
import { ipv4Text, ipv6Text, macText } from './decode';

export interface AddressMapping {
  ip: [string, string][];
  mac: [string, string][];
}

function isSpecialV4(b: Uint8Array, o: number): boolean {
  const a = b[o]!;
  if (a >= 224) return true; // multicast, reserved, limited broadcast
  return a === 0 && b[o + 1] === 0 && b[o + 2] === 0 && b[o + 3] === 0;
}

function isSpecialV6(b: Uint8Array, o: number): boolean {
  if (b[o] === 0xff) return true;
  for (let i = 0; i < 15; i++) if (b[o + i] !== 0) return false;
  return b[o + 15]! <= 1;
}

export class Anonymizer {
  /** IPv4 as u32 -> replacement u32. */
  private readonly v4 = new Map<number, number>();
  private readonly v6 = new Map<string, Buffer>();
  private readonly macs = new Map<string, Buffer>();
  private next4 = 1;
  private nextBcast = 0;
  private next6 = 1;
  private nextMac = 1;
  /** Replacements of addresses given as text (a replacement never changes once assigned). */
  private readonly ipTexts = new Map<string, string>();
  private readonly macTexts = new Map<string, string>();
  /** Mapping in order of assignment (as text), for storing and showing. */
  readonly ipPairs: [string, string][] = [];
  readonly macPairs: [string, string][] = [];

  constructor(seed?: AddressMapping) {
    for (const [from, to] of seed?.ip ?? []) this.seedIp(from, to);
    for (const [from, to] of seed?.mac ?? []) this.seedMac(from, to);
  }

  private seedIp(from: string, to: string): void {
    if (from.includes(':')) {
      const a = parseV6(from);
      const b = parseV6(to);
      if (!a || !b) return;
      this.v6.set(a.toString('hex'), b);
      this.ipPairs.push([from, to]);
      const last = b.readUInt32BE(12);
      if (b[0] === 0xfd && last >= this.next6) this.next6 = last + 1;
    } else {
      const a = parseV4(from);
      const b = parseV4(to);
      if (a === null || b === null) return;
      this.v4.set(a, b);
      this.ipPairs.push([from, to]);
      if (b >>> 24 === 10 && (b & 0xff) === 255) this.nextBcast = Math.max(this.nextBcast, (0xff - ((b >>> 16) & 0xff)) * 256 + ((b >>> 8) & 0xff) + 1);
      else if (b >>> 24 === 10) this.next4 = Math.max(this.next4, (b & 0xffffff) + 1);
    }
  }

  private seedMac(from: string, to: string): void {
    const b = Buffer.from(to.replace(/:/g, ''), 'hex');
    if (b.length !== 6) return;
    this.macs.set(from.replace(/:/g, '').toLowerCase(), b);
    this.macPairs.push([from, to]);
    const n = b.readUIntBE(2, 4);
    if (b[0] === 0x02 && n >= this.nextMac) this.nextMac = n + 1;
  }

  get mapping(): AddressMapping {
    return { ip: this.ipPairs, mac: this.macPairs };
  }

  /** Replacement of the IPv4 address in b[o, o + 4) (written there); returns whether it changed. */
  rewriteV4(b: Buffer, o: number): boolean {
    if (isSpecialV4(b, o)) return false;
    const orig = ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
    let rep = this.v4.get(orig);
    if (rep === undefined) {
      if ((orig & 0xff) === 255) {
        const k = this.nextBcast++;
        rep = ((10 << 24) | ((0xff - ((k >>> 8) & 0x0f)) << 16) | ((k & 0xff) << 8) | 255) >>> 0;
      } else {
        for (;;) {
          const n = this.next4++;
          if ((n & 0xff) === 0 || (n & 0xff) === 255) continue;
          rep = ((10 << 24) | (n & 0xffffff)) >>> 0;
          break;
        }
      }
      this.v4.set(orig, rep);
      this.ipPairs.push([ipv4Text(b, o), v4Text(rep)]);
    }
    b[o] = rep >>> 24;
    b[o + 1] = (rep >>> 16) & 0xff;
    b[o + 2] = (rep >>> 8) & 0xff;
    b[o + 3] = rep & 0xff;
    return rep !== orig;
  }

  rewriteV6(b: Buffer, o: number): boolean {
    if (isSpecialV6(b, o)) return false;
    const key = b.toString('hex', o, o + 16);
    let rep = this.v6.get(key);
    if (!rep) {
      rep = Buffer.alloc(16);
      rep[0] = 0xfd;
      rep.writeUInt32BE(this.next6++, 12);
      this.v6.set(key, rep);
      this.ipPairs.push([ipv6Text(b, o), ipv6Text(rep, 0)]);
    }
    rep.copy(b, o);
    return true;
  }

  rewriteMac(b: Buffer, o: number): void {
    if (b[o]! & 1) return; // broadcast / multicast
    const key = b.toString('hex', o, o + 6);
    let rep = this.macs.get(key);
    if (!rep) {
      rep = Buffer.from([0x02, 0, 0, 0, 0, 0]);
      rep.writeUIntBE(this.nextMac++, 2, 4);
      this.macs.set(key, rep);
      this.macPairs.push([macText(b, o), macText(rep, 0)]);
    }
    rep.copy(b, o);
  }

  /** The replacement of an address given as text (assigning one if new). */
  ipText(addr: string): string {
    return cached(this.ipTexts, addr, (a) => this.replaceIpText(a));
  }

  private replaceIpText(addr: string): string {
    if (addr.includes(':')) {
      const b = parseV6(addr);
      if (!b) return addr;
      this.rewriteV6(b, 0);
      return ipv6Text(b, 0);
    }
    const v = parseV4(addr);
    if (v === null) return addr;
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v, 0);
    this.rewriteV4(b, 0);
    return ipv4Text(b, 0);
  }

  macText(addr: string): string {
    return cached(this.macTexts, addr, (a) => this.replaceMacText(a));
  }

  private replaceMacText(addr: string): string {
    const b = Buffer.from(addr.replace(/:/g, ''), 'hex');
    if (b.length !== 6) return addr;
    this.rewriteMac(b, 0);
    return macText(b, 0);
  }
}

function cached(m: Map<string, string>, key: string, compute: (key: string) => string): string {
  let v = m.get(key);
  if (v === undefined) {
    v = compute(key);
    m.set(key, v);
  }
  return v;
}

function v4Text(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
}

export function parseV4(s: string): number | null {
  const p = s.split('.');
  if (p.length !== 4) return null;
  let v = 0;
  for (const x of p) {
    if (!/^\d{1,3}$/.test(x) || Number(x) > 255) return null;
    v = v * 256 + Number(x);
  }
  return v >>> 0;
}

export function parseV6(s: string): Buffer | null {
  const [head = '', tail, extra] = s.split('::');
  if (extra !== undefined) return null;
  let h = head ? head.split(':') : [];
  let t = tail ? tail.split(':') : [];
  const v4tail = (arr: string[]) => {
    const last = arr[arr.length - 1];
    if (last && last.includes('.')) {
      const v = parseV4(last);
      if (v === null) return null;
      return [...arr.slice(0, -1), ((v >>> 16) & 0xffff).toString(16), (v & 0xffff).toString(16)];
    }
    return arr;
  };
  if (tail === undefined) {
    const x = v4tail(h);
    if (!x) return null;
    h = x;
  } else {
    const x = v4tail(t);
    if (!x) return null;
    t = x;
  }
  const groups = tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
