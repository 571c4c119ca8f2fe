/**
 * Builds captures byte by byte for tests, the fuzzer, the benchmark and the demo seed's PCAP Actions
 * (server/seed/demo-traffic.ts): frames (Ethernet with VLAN
 * tags, Linux SLL/SLL2, BSD null/loopback, raw IP), IPv4/IPv6 with TCP/UDP and correct checksums,
 * and the containers (pcap in both byte orders and resolutions, pcapng with several interfaces and
 * every packet block kind). Independent of the parser on purpose: tests compare the two.
 *
 * Size: over 400 lines on purpose: one builder per layer and container, mirroring decode.ts and reader.ts
 * without sharing code with them (so tests compare two independent implementations).
 */
import { finish, ipv4HeaderChecksum, l4Checksum, onesSum, pseudoSumV4, pseudoSumV6 } from '../checksum';

export type Bytes = Buffer;

// ------------------------------------------------------------------------------------------------
// Addresses

export function ip4(text: string): Bytes {
  const parts = text.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`bad IPv4 ${text}`);
  return Buffer.from(parts);
}

export function ip6(text: string): Bytes {
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) throw new Error(`bad IPv6 ${text}`);
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

export function mac(text: string): Bytes {
  const parts = text.split(':').map((p) => parseInt(p, 16));
  if (parts.length !== 6) throw new Error(`bad MAC ${text}`);
  return Buffer.from(parts);
}

// ------------------------------------------------------------------------------------------------
// Transport

export const TCP_FLAGS = { FIN: 0x01, SYN: 0x02, RST: 0x04, PSH: 0x08, ACK: 0x10, URG: 0x20 } as const;

export interface TcpOptions {
  sport: number;
  dport: number;
  seq: number;
  ack?: number;
  flags: number;
  win?: number;
  payload?: Bytes;
  /** Raw TCP options (padded to 4 bytes). */
  options?: Bytes;
  /** Overrides the data offset nibble (bogus headers for tests). */
  dataOffsetWords?: number;
}

export function tcp(o: TcpOptions): Bytes {
  const opts = o.options ?? Buffer.alloc(0);
  const optLen = Math.ceil(opts.length / 4) * 4;
  const hdr = Buffer.alloc(20 + optLen);
  hdr.writeUInt16BE(o.sport, 0);
  hdr.writeUInt16BE(o.dport, 2);
  hdr.writeUInt32BE(o.seq >>> 0, 4);
  hdr.writeUInt32BE((o.ack ?? 0) >>> 0, 8);
  hdr[12] = (o.dataOffsetWords ?? (20 + optLen) / 4) << 4;
  hdr[13] = o.flags;
  hdr.writeUInt16BE(o.win ?? 64240, 14);
  opts.copy(hdr, 20);
  return Buffer.concat([hdr, o.payload ?? Buffer.alloc(0)]);
}

export function udp(sport: number, dport: number, payload: Bytes = Buffer.alloc(0)): Bytes {
  const hdr = Buffer.alloc(8);
  hdr.writeUInt16BE(sport, 0);
  hdr.writeUInt16BE(dport, 2);
  hdr.writeUInt16BE(8 + payload.length, 4);
  return Buffer.concat([hdr, payload]);
}

// ------------------------------------------------------------------------------------------------
// Network

export const PROTO = { ICMP: 1, TCP: 6, UDP: 17, ICMPV6: 58 } as const;

export interface Ipv4Options {
  src: string;
  dst: string;
  proto: number;
  payload: Bytes;
  id?: number;
  ttl?: number;
  /** Fragment offset in bytes (multiple of 8). */
  fragOffset?: number;
  moreFragments?: boolean;
  dontFragment?: boolean;
  /** Total length override (for malformed packets). */
  totalLength?: number;
  /** Fill in the TCP/UDP checksum (default true; not for fragments). */
  l4Checksum?: boolean;
}

/** An IPv4 packet; TCP/UDP checksums are computed over the payload unless it is a fragment. */
export function ipv4(o: Ipv4Options): Bytes {
  const hdr = Buffer.alloc(20);
  hdr[0] = 0x45;
  hdr.writeUInt16BE(o.totalLength ?? 20 + o.payload.length, 2);
  hdr.writeUInt16BE(o.id ?? 0x1234, 4);
  const off = (o.fragOffset ?? 0) / 8;
  hdr.writeUInt16BE((o.moreFragments ? 0x2000 : 0) | (o.dontFragment ? 0x4000 : 0) | off, 6);
  hdr[8] = o.ttl ?? 64;
  hdr[9] = o.proto;
  ip4(o.src).copy(hdr, 12);
  ip4(o.dst).copy(hdr, 16);
  hdr.writeUInt16BE(ipv4HeaderChecksum(hdr, 0, 20), 10);
  const pkt = Buffer.concat([hdr, o.payload]);
  const fragment = (o.fragOffset ?? 0) > 0 || o.moreFragments;
  if (!fragment && o.l4Checksum !== false) fillL4Checksum(pkt, 20, o.proto, pseudoSumV4(pkt, 12, o.proto, o.payload.length));
  return pkt;
}

export interface Ipv6Options {
  src: string;
  dst: string;
  nextHeader: number;
  payload: Bytes;
  hopLimit?: number;
  /** Extension headers placed before the payload: each {type, body} where body excludes the 2-byte next/len. */
  extensions?: { type: number; body: Bytes }[];
  l4Checksum?: boolean;
}

export function ipv6(o: Ipv6Options): Bytes {
  const exts = o.extensions ?? [];
  const extBufs: Bytes[] = [];
  for (let i = 0; i < exts.length; i++) {
    const e = exts[i]!;
    const next = i + 1 < exts.length ? exts[i + 1]!.type : o.nextHeader;
    const total = Math.ceil((2 + e.body.length) / 8) * 8;
    const b = Buffer.alloc(total);
    b[0] = next;
    b[1] = e.type === 44 ? 0 : total / 8 - 1;
    e.body.copy(b, 2);
    extBufs.push(b);
  }
  const ext = Buffer.concat(extBufs);
  const hdr = Buffer.alloc(40);
  hdr.writeUInt32BE(0x60000000, 0);
  hdr.writeUInt16BE(ext.length + o.payload.length, 4);
  hdr[6] = exts.length ? exts[0]!.type : o.nextHeader;
  hdr[7] = o.hopLimit ?? 64;
  ip6(o.src).copy(hdr, 8);
  ip6(o.dst).copy(hdr, 24);
  const pkt = Buffer.concat([hdr, ext, o.payload]);
  const fragmented = exts.some((e) => e.type === 44);
  if (!fragmented && o.l4Checksum !== false) fillL4Checksum(pkt, 40 + ext.length, o.nextHeader, pseudoSumV6(pkt, 8, o.nextHeader, o.payload.length));
  return pkt;
}

/** Body of an IPv6 fragment extension header (offset in bytes, multiple of 8). */
export function ipv6FragmentBody(offset: number, more: boolean, ident: number): Bytes {
  const b = Buffer.alloc(6);
  b.writeUInt16BE((offset / 8) << 3 | (more ? 1 : 0), 0);
  b.writeUInt32BE(ident >>> 0, 2);
  return b;
}

function fillL4Checksum(pkt: Bytes, off: number, proto: number, pseudo: number): void {
  const len = pkt.length - off;
  if (proto === PROTO.TCP && len >= 20) pkt.writeUInt16BE(l4Checksum(pkt, off, len, 16, pseudo), off + 16);
  else if (proto === PROTO.UDP && len >= 8) {
    const c = l4Checksum(pkt, off, len, 6, pseudo);
    pkt.writeUInt16BE(c === 0 ? 0xffff : c, off + 6);
  } else if (proto === PROTO.ICMP && len >= 4) pkt.writeUInt16BE(finish(onesSum(pkt, off + 4, off + len, onesSum(pkt, off, off + 2))), off + 2);
}

// ------------------------------------------------------------------------------------------------
// Link layer

export const ETHERTYPE = { IPV4: 0x0800, IPV6: 0x86dd, ARP: 0x0806, VLAN: 0x8100, QINQ: 0x88a8, LLDP: 0x88cc } as const;

export interface EthOptions {
  dst?: string;
  src?: string;
  type: number;
  payload: Bytes;
  /** VLAN tags outermost first: {tpid (0x8100 or 0x88a8), id}. */
  vlans?: { tpid?: number; id: number; pcp?: number }[];
  /** Pad to the 60-byte Ethernet minimum (as a NIC does). */
  pad?: boolean;
}

export function eth(o: EthOptions): Bytes {
  const parts: Bytes[] = [mac(o.dst ?? '00:11:22:33:44:55'), mac(o.src ?? '66:77:88:99:aa:bb')];
  for (const v of o.vlans ?? []) {
    const t = Buffer.alloc(4);
    t.writeUInt16BE(v.tpid ?? ETHERTYPE.VLAN, 0);
    t.writeUInt16BE(((v.pcp ?? 0) << 13) | v.id, 2);
    parts.push(t);
  }
  const ty = Buffer.alloc(2);
  ty.writeUInt16BE(o.type, 0);
  parts.push(ty, o.payload);
  const frame = Buffer.concat(parts);
  return o.pad !== false && frame.length < 60 ? Buffer.concat([frame, Buffer.alloc(60 - frame.length)]) : frame;
}

/** An ARP request (non-IP frame payload). */
export function arpRequest(senderMac: string, senderIp: string, targetIp: string): Bytes {
  const b = Buffer.alloc(28);
  b.writeUInt16BE(1, 0);
  b.writeUInt16BE(0x0800, 2);
  b[4] = 6;
  b[5] = 4;
  b.writeUInt16BE(1, 6);
  mac(senderMac).copy(b, 8);
  ip4(senderIp).copy(b, 14);
  ip4(targetIp).copy(b, 24);
  return b;
}

/** Linux cooked capture v1 (DLT 113) header + payload. */
export function sll(protocol: number, payload: Bytes, packetType = 0, addr = '00:11:22:33:44:55'): Bytes {
  const h = Buffer.alloc(16);
  h.writeUInt16BE(packetType, 0);
  h.writeUInt16BE(1, 2); // ARPHRD_ETHER
  h.writeUInt16BE(6, 4);
  mac(addr).copy(h, 6);
  h.writeUInt16BE(protocol, 14);
  return Buffer.concat([h, payload]);
}

/** Linux cooked capture v2 (DLT 276) header + payload. */
export function sll2(protocol: number, payload: Bytes, ifindex = 2, packetType = 0, addr = '00:11:22:33:44:55'): Bytes {
  const h = Buffer.alloc(20);
  h.writeUInt16BE(protocol, 0);
  h.writeUInt32BE(ifindex, 4);
  h.writeUInt16BE(1, 8);
  h[10] = packetType;
  h[11] = 6;
  mac(addr).copy(h, 12);
  return Buffer.concat([h, payload]);
}

/** BSD null (DLT 0, host byte order) or loopback (DLT 108, network order) header + payload. */
export function nullLoop(family: number, payload: Bytes, littleEndian: boolean): Bytes {
  const h = Buffer.alloc(4);
  if (littleEndian) h.writeUInt32LE(family, 0);
  else h.writeUInt32BE(family, 0);
  return Buffer.concat([h, payload]);
}

// ------------------------------------------------------------------------------------------------
// Containers

export interface Packet {
  /** Seconds since the epoch as [seconds, nanoseconds]. */
  ts: [number, number];
  data: Bytes;
  /** Length on the wire (defaults to data.length). */
  origLen?: number;
  /** pcapng interface (default 0). */
  iface?: number;
  /** pcapng block kind (default 'epb'). */
  block?: 'epb' | 'spb' | 'pb';
}

export interface PcapOptions {
  linkType: number;
  nano?: boolean;
  bigEndian?: boolean;
  snaplen?: number;
}

export function pcapHeader(o: PcapOptions): Bytes {
  const h = Buffer.alloc(24);
  const w32 = (v: number, at: number) => (o.bigEndian ? h.writeUInt32BE(v >>> 0, at) : h.writeUInt32LE(v >>> 0, at));
  const w16 = (v: number, at: number) => (o.bigEndian ? h.writeUInt16BE(v, at) : h.writeUInt16LE(v, at));
  w32(o.nano ? 0xa1b23c4d : 0xa1b2c3d4, 0);
  w16(2, 4);
  w16(4, 6);
  w32(0, 8);
  w32(0, 12);
  w32(o.snaplen ?? 262144, 16);
  w32(o.linkType, 20);
  return h;
}

export function pcapRecord(p: Packet, o: PcapOptions): Bytes {
  const h = Buffer.alloc(16);
  const w32 = (v: number, at: number) => (o.bigEndian ? h.writeUInt32BE(v >>> 0, at) : h.writeUInt32LE(v >>> 0, at));
  w32(p.ts[0], 0);
  w32(o.nano ? p.ts[1] : Math.floor(p.ts[1] / 1000), 4);
  w32(p.data.length, 8);
  w32(p.origLen ?? p.data.length, 12);
  return Buffer.concat([h, p.data]);
}

export function buildPcap(packets: readonly Packet[], o: PcapOptions): Bytes {
  return Buffer.concat([pcapHeader(o), ...packets.map((p) => pcapRecord(p, o))]);
}

export interface PcapngInterface {
  linkType: number;
  snaplen?: number;
  /** if_tsresol option byte (default none = microseconds). */
  tsresol?: number;
  /** if_tsoffset in seconds. */
  tsoffset?: number;
}

export interface PcapngSection {
  bigEndian?: boolean;
  interfaces: PcapngInterface[];
  packets: Packet[];
  /** Extra unknown blocks inserted after the interfaces: [type, body]. */
  extraBlocks?: [number, Bytes][];
}

class BlockWriter {
  constructor(private readonly be: boolean) {}
  u32(v: number): Bytes {
    const b = Buffer.alloc(4);
    if (this.be) b.writeUInt32BE(v >>> 0, 0);
    else b.writeUInt32LE(v >>> 0, 0);
    return b;
  }
  u16(v: number): Bytes {
    const b = Buffer.alloc(2);
    if (this.be) b.writeUInt16BE(v, 0);
    else b.writeUInt16LE(v, 0);
    return b;
  }
  pad(b: Bytes): Bytes {
    const n = Math.ceil(b.length / 4) * 4;
    return n === b.length ? b : Buffer.concat([b, Buffer.alloc(n - b.length)]);
  }
  option(code: number, value: Bytes): Bytes {
    return Buffer.concat([this.u16(code), this.u16(value.length), this.pad(value)]);
  }
  block(type: number, body: Bytes): Bytes {
    const total = 12 + body.length;
    return Buffer.concat([this.u32(type), this.u32(total), body, this.u32(total)]);
  }
}

/** Units per second for an if_tsresol byte. */
export function tsUnits(tsresol: number | undefined): bigint {
  if (tsresol === undefined) return 1_000_000n;
  return tsresol & 0x80 ? 1n << BigInt(tsresol & 0x7f) : 10n ** BigInt(tsresol);
}

export function buildPcapngSection(s: PcapngSection): Bytes {
  const w = new BlockWriter(!!s.bigEndian);
  const out: Bytes[] = [];
  const shbBody = Buffer.concat([w.u32(0x1a2b3c4d), w.u16(1), w.u16(0), w.u32(0xffffffff), w.u32(0xffffffff), w.option(4, Buffer.from('vigil test builder')), w.u32(0)]);
  out.push(w.block(0x0a0d0d0a, shbBody));
  for (const itf of s.interfaces) {
    const opts: Bytes[] = [];
    if (itf.tsresol !== undefined) opts.push(w.option(9, Buffer.from([itf.tsresol])));
    if (itf.tsoffset !== undefined) {
      const b = Buffer.alloc(8);
      if (s.bigEndian) b.writeBigInt64BE(BigInt(itf.tsoffset));
      else b.writeBigInt64LE(BigInt(itf.tsoffset));
      opts.push(w.option(14, b));
    }
    if (opts.length) opts.push(w.u32(0));
    out.push(w.block(1, Buffer.concat([w.u16(itf.linkType), w.u16(0), w.u32(itf.snaplen ?? 262144), ...opts])));
  }
  for (const [type, body] of s.extraBlocks ?? []) out.push(w.block(type, w.pad(body)));
  for (const p of s.packets) {
    const iface = p.iface ?? 0;
    const itf = s.interfaces[iface];
    const units = tsUnits(itf?.tsresol);
    const rel = BigInt(p.ts[0] - (itf?.tsoffset ?? 0)) * units + (BigInt(p.ts[1]) * units) / 1_000_000_000n;
    const hi = Number(rel >> 32n);
    const lo = Number(rel & 0xffffffffn);
    const kind = p.block ?? 'epb';
    if (kind === 'epb') {
      out.push(w.block(6, Buffer.concat([w.u32(iface), w.u32(hi), w.u32(lo), w.u32(p.data.length), w.u32(p.origLen ?? p.data.length), w.pad(p.data)])));
    } else if (kind === 'pb') {
      out.push(w.block(2, Buffer.concat([w.u16(iface), w.u16(0), w.u32(hi), w.u32(lo), w.u32(p.data.length), w.u32(p.origLen ?? p.data.length), w.pad(p.data)])));
    } else {
      out.push(w.block(3, Buffer.concat([w.u32(p.origLen ?? p.data.length), w.pad(p.data)])));
    }
  }
  return Buffer.concat(out);
}

export function buildPcapng(sections: PcapngSection[]): Bytes {
  return Buffer.concat(sections.map(buildPcapngSection));
}

// ------------------------------------------------------------------------------------------------
// Traffic

export interface Endpoint {
  ip: string;
  port: number;
  mac?: string;
}

/** Wraps an IP packet into a frame of a link type. */
export type Framer = (ipPacket: Bytes, v6: boolean, fromA: boolean) => Bytes;

export const framers = {
  ethernet:
    (a: string, b: string, vlans?: EthOptions['vlans']): Framer =>
    (p, v6, fromA) =>
      eth({ src: fromA ? a : b, dst: fromA ? b : a, type: v6 ? ETHERTYPE.IPV6 : ETHERTYPE.IPV4, payload: p, vlans }),
  raw: (): Framer => (p) => p,
  sll: (): Framer => (p, v6, fromA) => sll(v6 ? ETHERTYPE.IPV6 : ETHERTYPE.IPV4, p, fromA ? 4 : 0),
  sll2: (): Framer => (p, v6, fromA) => sll2(v6 ? ETHERTYPE.IPV6 : ETHERTYPE.IPV4, p, 2, fromA ? 4 : 0),
  null: (littleEndian: boolean): Framer => (p, v6) => nullLoop(v6 ? 30 : 2, p, littleEndian),
};

export interface Clock {
  /** Returns the current time and advances by stepNs. */
  next(stepNs?: number): [number, number];
}

export function clock(startSec = 1_700_000_000, startNs = 0, defaultStepNs = 1_000_000): Clock {
  let sec = startSec;
  let ns = startNs;
  return {
    next(stepNs = defaultStepNs) {
      const now: [number, number] = [sec, ns];
      ns += stepNs;
      sec += Math.floor(ns / 1e9);
      ns %= 1e9;
      return now;
    },
  };
}

const isV6 = (ip: string) => ip.includes(':');

/** An IP packet from one endpoint to another carrying a transport segment. */
export function ipPacket(src: string, dst: string, proto: number, payload: Bytes): Bytes {
  return isV6(src) ? ipv6({ src, dst, nextHeader: proto, payload }) : ipv4({ src, dst, proto, payload });
}

export interface TcpSessionOptions {
  client: Endpoint;
  server: Endpoint;
  /** Request and response payloads exchanged after the handshake, in order. */
  exchanges?: { fromClient: boolean; data: Bytes }[];
  isnClient?: number;
  isnServer?: number;
  handshake?: boolean;
  close?: 'fin' | 'rst' | 'none';
  /** Sequence gaps: skip this many bytes before the nth exchange (missed bytes). */
  gaps?: Record<number, number>;
}

/** A TCP connection as IP packets in order, with who sent each one. */
export function tcpSession(o: TcpSessionOptions): { fromClient: boolean; ip: Bytes }[] {
  const out: { fromClient: boolean; ip: Bytes }[] = [];
  const c = o.client;
  const s = o.server;
  let cseq = o.isnClient ?? 1000;
  let sseq = o.isnServer ?? 5000;
  const send = (fromClient: boolean, flags: number, payload?: Bytes) => {
    const seg = fromClient
      ? tcp({ sport: c.port, dport: s.port, seq: cseq, ack: flags & TCP_FLAGS.ACK ? sseq : 0, flags, payload })
      : tcp({ sport: s.port, dport: c.port, seq: sseq, ack: flags & TCP_FLAGS.ACK ? cseq : 0, flags, payload });
    out.push({ fromClient, ip: fromClient ? ipPacket(c.ip, s.ip, PROTO.TCP, seg) : ipPacket(s.ip, c.ip, PROTO.TCP, seg) });
    const adv = (payload?.length ?? 0) + (flags & (TCP_FLAGS.SYN | TCP_FLAGS.FIN) ? 1 : 0);
    if (fromClient) cseq = (cseq + adv) >>> 0;
    else sseq = (sseq + adv) >>> 0;
  };
  if (o.handshake !== false) {
    send(true, TCP_FLAGS.SYN);
    send(false, TCP_FLAGS.SYN | TCP_FLAGS.ACK);
    send(true, TCP_FLAGS.ACK);
  }
  (o.exchanges ?? []).forEach((x, i) => {
    const gap = o.gaps?.[i] ?? 0;
    if (x.fromClient) cseq = (cseq + gap) >>> 0;
    else sseq = (sseq + gap) >>> 0;
    send(x.fromClient, TCP_FLAGS.PSH | TCP_FLAGS.ACK, x.data);
    send(!x.fromClient, TCP_FLAGS.ACK);
  });
  if (o.close === 'rst') send(true, TCP_FLAGS.RST | TCP_FLAGS.ACK);
  else if (o.close !== 'none') {
    send(true, TCP_FLAGS.FIN | TCP_FLAGS.ACK);
    send(false, TCP_FLAGS.FIN | TCP_FLAGS.ACK);
    send(true, TCP_FLAGS.ACK);
  }
  return out;
}

/** A DNS query for a name (type A), as a UDP payload. */
export function dnsQuery(id: number, name: string, qtype = 1): Bytes {
  const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')]));
  const h = Buffer.alloc(12);
  h.writeUInt16BE(id, 0);
  h.writeUInt16BE(0x0100, 2);
  h.writeUInt16BE(1, 4);
  const q = Buffer.alloc(4);
  q.writeUInt16BE(qtype, 0);
  q.writeUInt16BE(1, 2);
  return Buffer.concat([h, ...labels, Buffer.from([0]), q]);
}

export { prng } from '../synth';
