/**
 * Decodes one frame down to TCP/UDP without allocating: the link layer (Ethernet with 802.1Q/QinQ
 * tags, Linux SLL and SLL2, BSD null/loopback, raw IPv4/IPv6, PPP, Cisco HDLC, Linux NFLOG, IEEE
 * 802.11 with or without radiotap), IPv4 and IPv6 (extension headers, the final destination of a
 * routing header, RPL's compressed one included, fragments), tunnels (IP-in-IP, GRE, and in UDP VXLAN,
 * GTP-U, Geneve and Teredo), and the TCP/UDP header fields conversations need. Fields are offsets into the
 * record's buffer, filled into one reused `Frame`.
 *
 * What counts as a countable TCP or UDP segment follows Wireshark 4.0: TCP needs its whole header
 * (options included) captured and a header length of at least 20; UDP needs its 8-byte header
 * captured and a length field of at least 8.
 *
 * Size: over 400 lines on purpose: the link, IP and transport decoders fill one reused Frame in one pass
 * per packet (the upload's hot loop); kept in one module so that path reads top to bottom.
 */

export const LINKTYPE_NAMES: Record<number, string> = {
  0: 'BSD null/loopback',
  1: 'Ethernet',
  9: 'PPP',
  12: 'raw IP',
  14: 'raw IP',
  50: 'PPP in HDLC-like framing',
  101: 'raw IP',
  104: 'Cisco HDLC',
  105: 'IEEE 802.11',
  108: 'OpenBSD loopback',
  113: 'Linux cooked capture (SLL)',
  127: 'IEEE 802.11 with radiotap',
  228: 'raw IPv4',
  229: 'raw IPv6',
  239: 'Linux NFLOG',
  276: 'Linux cooked capture v2 (SLL2)',
};

export const enum Kind {
  /** Link type we do not decode. */
  UnsupportedLink = 0,
  /** A frame whose network layer is not IP (ARP, LLDP, ...). `etherType` says which. */
  NonIp = 1,
  /** Too short for its link header, or an IP header that is not valid. */
  Malformed = 2,
  /** IP carrying something other than TCP/UDP (ICMP, ...). */
  IpOther = 3,
  Tcp = 4,
  Udp = 5,
  /** A fragment of an IP datagram (reassembly decides). */
  Fragment = 6,
  /** TCP/UDP that Wireshark would not count (truncated or bogus header). */
  L4Malformed = 7,
}

export const IP_PROTO_NAMES: Record<number, string> = { 1: 'ICMP', 2: 'IGMP', 6: 'TCP', 17: 'UDP', 41: 'IPv6', 4: 'IPIP', 47: 'GRE', 50: 'ESP', 51: 'AH', 58: 'ICMPv6', 89: 'OSPF', 103: 'PIM', 112: 'VRRP', 132: 'SCTP' };

export const ETHERTYPE_NAMES: Record<number, string> = {
  0x0806: 'ARP',
  0x8035: 'RARP',
  0x88cc: 'LLDP',
  0x8863: 'PPPoE discovery',
  0x8864: 'PPPoE session',
  0x888e: 'EAPOL',
  0x8847: 'MPLS',
  0x8848: 'MPLS multicast',
  0x88e5: 'MACsec',
  0x8137: 'IPX',
  0x9000: 'Loopback (configuration test)',
  0x88f7: 'PTP',
  0x8809: 'Slow protocols (LACP)',
  0x893a: 'IEEE 1905',
  0x22f0: 'AVTP',
};

export function etherTypeName(t: number): string {
  if (t >= 0 && t <= 1500) return '802.3 LLC';
  return ETHERTYPE_NAMES[t] ?? `EtherType 0x${t.toString(16).padStart(4, '0')}`;
}

const MAX_VLANS = 8;

/** The decoded view of one frame. Offsets are absolute positions in `buf`. */
export class Frame {
  buf: Buffer = Buffer.alloc(0);
  kind: Kind = Kind.Malformed;
  /** Human-readable reason for Malformed / L4Malformed. */
  problem = '';
  /** Offset of the destination MAC (Ethernet frames), else -1. */
  macOff = -1;
  /** Number of VLAN tags and their ids (outermost first). */
  vlanCount = 0;
  readonly vlanIds = new Int32Array(MAX_VLANS);
  /** Offset where the VLAN tags start (Ethernet), and their total length in bytes. */
  vlanOff = -1;
  vlanBytes = 0;
  /** The network-layer EtherType (or family-derived equivalent). */
  etherType = 0;
  /** Offset of the IP header. */
  ipOff = -1;
  ipVersion = 0;
  ipHeaderLen = 0;
  /** Offset of source and destination addresses (4 or 16 bytes each). */
  srcOff = 0;
  dstOff = 0;
  /**
   * The destination conversations count: the IP header's, or with an IPv6 routing header that has
   * segments left the final destination in it (types 0, 2 and 4), as Wireshark takes it.
   */
  finalDstOff = 0;
  /** The buffer holding the final destination at finalDstOff: `buf`, or `rplDst` for an RPL routing header's. */
  dstBuf: Buffer = this.buf;
  /** An RPL source routing header's final destination, rebuilt from its compressed form. */
  readonly rplDst = Buffer.alloc(16);
  /** End of the IP datagram as its header reports it, bounded by the wire length. */
  ipEnd = 0;
  /** End of the captured bytes of this frame. */
  capEnd = 0;
  proto = 0;
  /** Offset of the transport header and its reported length (from the IP header). */
  l4Off = 0;
  l4Len = 0;
  /** Encapsulations removed to reach the IP packet: ENCAP_* bits. */
  encap = 0;
  /** Whether the frame is an IP fragment (also after decodeL4 of the datagram it completed). */
  isFragment = false;
  /** Fragment: offset in bytes of this fragment's data, more-fragments flag, identification. */
  fragOffset = 0;
  fragMore = false;
  fragId = 0;
  /** IPv4 TTL or IPv6 hop limit. */
  ttl = 0;
  sport = 0;
  dport = 0;
  seq = 0;
  ack = 0;
  tcpFlags = 0;
  tcpHeaderLen = 0;
  udpLen = 0;
  /** Payload offset and reported length (TCP: l4Len - header; UDP: l4Len - 8). */
  payloadOff = 0;
  payloadLen = 0;
}

const ETH_IPV4 = 0x0800;
const ETH_IPV6 = 0x86dd;

function isVlanTpid(t: number): boolean {
  return t === 0x8100 || t === 0x88a8 || t === 0x9100;
}

/**
 * Decodes the frame at buf[off, off + caplen) captured with `linkType`; `origLen` is its length on
 * the wire. Returns the frame's kind (also in f.kind).
 */
export function decodeFrame(f: Frame, buf: Buffer, off: number, caplen: number, origLen: number, linkType: number): Kind {
  f.buf = buf;
  f.macOff = -1;
  f.vlanCount = 0;
  f.vlanOff = -1;
  f.vlanBytes = 0;
  f.ipOff = -1;
  f.problem = '';
  f.etherType = 0;
  f.isFragment = false;
  f.encap = 0;
  const capEnd = off + caplen;
  const wireEnd = off + origLen;
  f.capEnd = capEnd;
  let p = off;
  let et = -1;
  switch (linkType) {
    case 1: {
      if (caplen < 14) return malformed(f, 'frame shorter than an Ethernet header');
      f.macOff = off;
      et = (buf[off + 12]! << 8) | buf[off + 13]!;
      p = off + 14;
      if (isVlanTpid(et)) f.vlanOff = off + 12;
      while (isVlanTpid(et)) {
        if (p + 4 > capEnd) return malformed(f, 'frame cut inside a VLAN tag');
        if (f.vlanCount < MAX_VLANS) f.vlanIds[f.vlanCount] = ((buf[p]! << 8) | buf[p + 1]!) & 0x0fff;
        f.vlanCount++;
        et = (buf[p + 2]! << 8) | buf[p + 3]!;
        p += 4;
      }
      f.vlanBytes = f.vlanCount * 4;
      break;
    }
    case 113: {
      if (caplen < 16) return malformed(f, 'frame shorter than a Linux cooked (SLL) header');
      et = (buf[off + 14]! << 8) | buf[off + 15]!;
      p = off + 16;
      while (isVlanTpid(et)) {
        if (p + 4 > capEnd) return malformed(f, 'frame cut inside a VLAN tag');
        if (f.vlanCount < MAX_VLANS) f.vlanIds[f.vlanCount] = ((buf[p]! << 8) | buf[p + 1]!) & 0x0fff;
        f.vlanCount++;
        et = (buf[p + 2]! << 8) | buf[p + 3]!;
        p += 4;
      }
      break;
    }
    case 276: {
      if (caplen < 20) return malformed(f, 'frame shorter than a Linux cooked v2 (SLL2) header');
      et = (buf[off]! << 8) | buf[off + 1]!;
      p = off + 20;
      while (isVlanTpid(et)) {
        if (p + 4 > capEnd) return malformed(f, 'frame cut inside a VLAN tag');
        if (f.vlanCount < MAX_VLANS) f.vlanIds[f.vlanCount] = ((buf[p]! << 8) | buf[p + 1]!) & 0x0fff;
        f.vlanCount++;
        et = (buf[p + 2]! << 8) | buf[p + 3]!;
        p += 4;
      }
      break;
    }
    case 0:
    case 108: {
      if (caplen < 4) return malformed(f, 'frame shorter than a loopback header');
      let fam: number;
      if (linkType === 108) fam = buf.readUInt32BE(off);
      else {
        fam = buf.readUInt32LE(off);
        // Host byte order of the capturing machine: a big-endian writer puts the value in the top bytes.
        if ((fam & 0xffff0000) !== 0) fam = buf.readUInt32BE(off);
      }
      p = off + 4;
      if (fam === 2) et = ETH_IPV4;
      else if (fam === 24 || fam === 28 || fam === 30 || fam === 10) et = ETH_IPV6;
      else if (fam > 1500) et = fam & 0xffff;
      else {
        return nonIp(f, fam, `loopback address family ${fam}`);
      }
      break;
    }
    case 12:
    case 14:
    case 101: {
      if (caplen < 1) return malformed(f, 'empty frame');
      const v = buf[off]! >> 4;
      if (v === 4) et = ETH_IPV4;
      else if (v === 6) et = ETH_IPV6;
      else return malformed(f, `raw IP frame with IP version ${v}`);
      break;
    }
    case 9:
    case 50: {
      // PPP, optionally with HDLC-like address and control bytes (ff 03) and a compressed protocol;
      // Cisco HDLC (0f/8f) shows up under DLT 50 too and is read as Wireshark does.
      if (caplen < 2) return malformed(f, 'frame shorter than a PPP header');
      if (linkType === 50 && (buf[off] === 0x0f || buf[off] === 0x8f)) {
        if (caplen < 4) return malformed(f, 'frame shorter than a Cisco HDLC header');
        et = (buf[off + 2]! << 8) | buf[off + 3]!;
        p = off + 4;
        break;
      }
      let q = buf[off] === 0xff && buf[off + 1] === 0x03 ? off + 2 : off;
      if (q >= capEnd) return malformed(f, 'frame shorter than a PPP header');
      let proto = buf[q]!;
      if (proto & 1) q += 1;
      else {
        if (q + 2 > capEnd) return malformed(f, 'frame shorter than a PPP header');
        proto = (proto << 8) | buf[q + 1]!;
        q += 2;
      }
      p = q;
      if (proto === 0x21) et = ETH_IPV4;
      else if (proto === 0x57) et = ETH_IPV6;
      else if (proto === 0x281 || proto === 0x283) et = MPLS_UNICAST;
      else return nonIp(f, proto, `PPP protocol 0x${proto.toString(16).padStart(4, '0')}`);
      break;
    }
    case 104: {
      if (caplen < 4) return malformed(f, 'frame shorter than a Cisco HDLC header');
      et = (buf[off + 2]! << 8) | buf[off + 3]!;
      p = off + 4;
      if (et === 0x8035) return nonIp(f, et, 'Cisco SLARP');
      break;
    }
    case 239:
      return decodeNflog(f, buf, off, capEnd, wireEnd);
    case 105:
      return decodeWlan(f, buf, off, capEnd, wireEnd);
    case 127: {
      if (caplen < 8) return malformed(f, 'frame shorter than a radiotap header');
      const len = buf.readUInt16LE(off + 2);
      if (len < 8 || len > caplen) return malformed(f, `radiotap header length ${len} does not fit the frame`);
      return decodeWlan(f, buf, off + len, capEnd, wireEnd);
    }
    case 228:
      et = ETH_IPV4;
      break;
    case 229:
      et = ETH_IPV6;
      break;
    default:
      f.kind = Kind.UnsupportedLink;
      return Kind.UnsupportedLink;
  }
  f.etherType = et;
  return decodeEtherType(f, buf, et, p, capEnd, wireEnd, 0);
}

function nonIp(f: Frame, etherType: number, what: string): Kind {
  f.etherType = etherType;
  f.problem = what;
  f.kind = Kind.NonIp;
  return Kind.NonIp;
}

/**
 * Linux NFLOG (DLT 239): family, version and resource id, then type-length-value attributes in the
 * capturing host's byte order, each padded to 4 bytes; the packet is the NFULA_PAYLOAD (type 9).
 */
function decodeNflog(f: Frame, buf: Buffer, off: number, capEnd: number, wireEnd: number): Kind {
  if (off + 4 > capEnd) return malformed(f, 'frame shorter than an NFLOG header');
  const family = buf[off]!;
  let q = off + 4;
  // Host byte order: a length that does not fit as little-endian is read big-endian.
  const le = q + 2 > capEnd || buf.readUInt16LE(q) <= capEnd - q || buf.readUInt16BE(q) > capEnd - q;
  while (q + 4 <= capEnd) {
    const len = le ? buf.readUInt16LE(q) : buf.readUInt16BE(q);
    const type = (le ? buf.readUInt16LE(q + 2) : buf.readUInt16BE(q + 2)) & 0x7fff;
    if (len < 4 || q + len > wireEnd) return malformed(f, `NFLOG attribute of length ${len} does not fit the frame`);
    if (type === 9) {
      const p = q + 4;
      if (p >= capEnd) return malformed(f, 'NFLOG payload not captured');
      const v = buf[p]! >> 4;
      const et = family === 2 || (family !== 10 && v === 4) ? ETH_IPV4 : family === 10 || v === 6 ? ETH_IPV6 : -1;
      if (et < 0) return nonIp(f, 0, `NFLOG address family ${family}`);
      f.etherType = et;
      return decodeEtherType(f, buf, et, p, Math.min(capEnd, q + len), Math.min(wireEnd, q + len), 0);
    }
    q += (len + 3) & ~3;
  }
  return nonIp(f, 0, 'NFLOG record without a payload');
}

/**
 * An IEEE 802.11 frame: data frames (QoS or not, with four addresses between access points) whose
 * LLC/SNAP header names IPv4 or IPv6; management, control, null-data and protected frames are not IP.
 */
function decodeWlan(f: Frame, buf: Buffer, off: number, capEnd: number, wireEnd: number): Kind {
  if (off + 24 > capEnd) return malformed(f, 'frame shorter than an 802.11 header');
  const fc0 = buf[off]!;
  const fc1 = buf[off + 1]!;
  const type = (fc0 >> 2) & 3;
  const subtype = fc0 >> 4;
  if (type !== 2) return nonIp(f, 0, type === 0 ? '802.11 management' : '802.11 control');
  if (subtype & 4) return nonIp(f, 0, '802.11 null data');
  if (fc1 & 0x40) return nonIp(f, 0, '802.11 protected data');
  const qos = (subtype & 8) !== 0;
  const hdr = 24 + ((fc1 & 3) === 3 ? 6 : 0) + (qos ? 2 : 0) + (qos && fc1 & 0x80 ? 4 : 0);
  const p = off + hdr;
  if (p + 8 > capEnd) return malformed(f, '802.11 data frame shorter than its LLC/SNAP header');
  if (buf[p] !== 0xaa || buf[p + 1] !== 0xaa || buf[p + 2] !== 0x03) return nonIp(f, 0, '802.11 LLC without SNAP');
  const et = (buf[p + 6]! << 8) | buf[p + 7]!;
  f.etherType = et;
  return decodeEtherType(f, buf, et, p + 8, capEnd, wireEnd, 0);
}

export const ENCAP_PPPOE = 1;
export const ENCAP_MPLS = 2;
export const ENCAP_IP_IN_IP = 4;
export const ENCAP_GRE = 8;
export const ENCAP_VXLAN = 16;
export const ENCAP_GTPU = 32;
export const ENCAP_GENEVE = 64;
export const ENCAP_TEREDO = 128;
export const ENCAP_NAMES: [number, string][] = [
  [ENCAP_PPPOE, 'PPPoE'],
  [ENCAP_MPLS, 'MPLS'],
  [ENCAP_IP_IN_IP, 'IP-in-IP'],
  [ENCAP_GRE, 'GRE'],
  [ENCAP_VXLAN, 'VXLAN'],
  [ENCAP_GTPU, 'GTP-U'],
  [ENCAP_GENEVE, 'Geneve'],
  [ENCAP_TEREDO, 'Teredo'],
];

const VXLAN_PORT = 4789;
const GTPU_PORT = 2152;
const GENEVE_PORT = 6081;
const TEREDO_PORT = 3544;

/** Whether a UDP frame's ports name a tunnel decodeUdpTunnel reads. */
export function isUdpTunnel(f: Frame): boolean {
  const s = f.sport;
  const d = f.dport;
  return s === VXLAN_PORT || d === VXLAN_PORT || s === GTPU_PORT || d === GTPU_PORT || s === GENEVE_PORT || d === GENEVE_PORT || s === TEREDO_PORT || d === TEREDO_PORT;
}

/**
 * The tunnel inside a decoded UDP frame `outer` (VXLAN on port 4789: an Ethernet frame; GTP-U on port
 * 2152, a G-PDU: an IP packet; Geneve on port 6081: an Ethernet frame or an IP packet after its
 * options; Teredo on port 3544: an IPv6 packet after optional authentication and origin indication
 * headers), decoded into `inner` (Kind.Fragment for a fragment, which reassembly decides); Kind.NonIp
 * when the frame carries none.
 * Wireshark counts such a frame twice: in the outer UDP conversation and in the inner one.
 */
export function decodeUdpTunnel(inner: Frame, outer: Frame, buf: Buffer, frameEnd: number): Kind {
  const p = outer.payloadOff;
  const end = Math.min(outer.capEnd, p + outer.payloadLen);
  const wireEnd = Math.min(frameEnd, outer.payloadOff + outer.payloadLen);
  const vxlan = outer.sport === VXLAN_PORT || outer.dport === VXLAN_PORT;
  const gtp = !vxlan && (outer.sport === GTPU_PORT || outer.dport === GTPU_PORT);
  inner.kind = Kind.NonIp;
  if (!vxlan && !gtp && (outer.sport === GENEVE_PORT || outer.dport === GENEVE_PORT)) {
    if (p + 8 > end || buf[p]! >> 6 !== 0) return Kind.NonIp;
    const q = p + 8 + (buf[p]! & 0x3f) * 4;
    const proto = (buf[p + 2]! << 8) | buf[p + 3]!;
    const link = proto === 0x6558 ? 1 : proto === 0x0800 || proto === 0x86dd ? 101 : -1;
    if (link < 0 || q >= end || (link === 1 && q + 14 > end)) return Kind.NonIp;
    const k = decodeFrame(inner, buf, q, end - q, wireEnd - q, link);
    inner.encap |= ENCAP_GENEVE;
    return k;
  }
  if (!vxlan && !gtp && (outer.sport === TEREDO_PORT || outer.dport === TEREDO_PORT)) {
    let q = p;
    // Authentication header (type 1): id and value lengths, nonce and confirmation byte.
    if (q + 4 <= end && buf[q] === 0 && buf[q + 1] === 1) q += 4 + buf[q + 2]! + buf[q + 3]! + 9;
    // Origin indication (type 0): port and address of the client as the server saw them.
    if (q + 8 <= end && buf[q] === 0 && buf[q + 1] === 0) q += 8;
    if (q + 40 > end || buf[q]! >> 4 !== 6) return Kind.NonIp;
    const k = decodeFrame(inner, buf, q, end - q, wireEnd - q, 229);
    inner.encap |= ENCAP_TEREDO;
    return k;
  }
  if (vxlan && p + 8 + 14 <= end && buf[p]! & 0x08) {
    const k = decodeFrame(inner, buf, p + 8, end - p - 8, wireEnd - p - 8, 1);
    inner.encap |= ENCAP_VXLAN;
    return k;
  }
  if (gtp && p + 8 <= end && buf[p]! >> 5 === 1 && buf[p]! & 0x10 && buf[p + 1] === 0xff) {
    let q = p + 8;
    if (buf[p]! & 0x07) {
      if (q + 4 > end) return Kind.NonIp;
      let next = buf[q + 3]!;
      q += 4;
      // Extension headers (E flag): a length in 4-byte units, the next type in the last byte.
      for (let guard = 0; buf[p]! & 0x04 && next !== 0 && guard < 16; guard++) {
        if (q >= end || buf[q] === 0) return Kind.NonIp;
        const len = buf[q]! * 4;
        if (q + len > end) return Kind.NonIp;
        next = buf[q + len - 1]!;
        q += len;
      }
    }
    if (q >= end) return Kind.NonIp;
    const k = decodeFrame(inner, buf, q, end - q, wireEnd - q, 101);
    inner.encap |= ENCAP_GTPU;
    return k;
  }
  return Kind.NonIp;
}

const PPPOE_SESSION = 0x8864;
const MPLS_UNICAST = 0x8847;
const MPLS_MULTICAST = 0x8848;
const MAX_NESTING = 4;

/**
 * The network layer after an EtherType: IPv4, IPv6, or IP carried by a PPPoE session or an MPLS label
 * stack (as Wireshark dissects them; the frame's IP is then the inner one).
 */
function decodeEtherType(f: Frame, buf: Buffer, et: number, p: number, capEnd: number, wireEnd: number, depth: number): Kind {
  if (et === ETH_IPV4) return decodeIpv4(f, buf, p, capEnd, wireEnd, depth);
  if (et === ETH_IPV6) return decodeIpv6(f, buf, p, capEnd, wireEnd, depth);
  if (et === PPPOE_SESSION && p + 8 <= capEnd && buf[p] === 0x11 && buf[p + 1] === 0) {
    const proto = (buf[p + 6]! << 8) | buf[p + 7]!;
    f.encap |= ENCAP_PPPOE;
    if (proto === 0x0021) return decodeIpv4(f, buf, p + 8, capEnd, wireEnd, depth);
    if (proto === 0x0057) return decodeIpv6(f, buf, p + 8, capEnd, wireEnd, depth);
    f.encap &= ~ENCAP_PPPOE;
  } else if (et === MPLS_UNICAST || et === MPLS_MULTICAST) {
    let q = p;
    for (let i = 0; i < 16 && q + 4 <= capEnd; i++) {
      const bottom = (buf[q + 2]! & 1) === 1;
      q += 4;
      if (!bottom) continue;
      if (q >= capEnd) break;
      const v = buf[q]! >> 4;
      if (v === 4 || v === 6) f.encap |= ENCAP_MPLS;
      if (v === 4) return decodeIpv4(f, buf, q, capEnd, wireEnd, depth);
      if (v === 6) return decodeIpv6(f, buf, q, capEnd, wireEnd, depth);
      break;
    }
  }
  f.kind = Kind.NonIp;
  return Kind.NonIp;
}

/**
 * A reassembled datagram of protocol 4, 41 or 47 (`first`: the kept start of its data, `len` bytes
 * in all) carrying a tunnel: the packet inside decoded into `inner` (its offsets are into `first`).
 */
export function decodeReassembledTunnel(inner: Frame, outer: Frame, first: Buffer, len: number): Kind {
  inner.buf = first;
  inner.kind = Kind.NonIp;
  inner.macOff = -1;
  inner.vlanCount = 0;
  inner.ipOff = -1;
  inner.problem = '';
  inner.isFragment = false;
  inner.encap = outer.encap;
  inner.capEnd = first.length;
  inner.proto = outer.proto;
  inner.l4Off = 0;
  inner.ipEnd = len;
  const k = decodeTunnel(inner, first, first.length, len, 0);
  return k === -1 ? Kind.NonIp : k;
}

/** IP-in-IP (4), IPv6-in-IP (41) and GRE (47) carrying IP: decode the inner packet instead. */
function decodeTunnel(f: Frame, buf: Buffer, capEnd: number, wireEnd: number, depth: number): Kind | -1 {
  if (depth >= MAX_NESTING) return -1;
  const p = f.l4Off;
  const end = Math.min(capEnd, f.ipEnd);
  if (f.proto === 4 || f.proto === 41) {
    if (p + (f.proto === 4 ? 20 : 40) > end) return -1;
    f.encap |= ENCAP_IP_IN_IP;
    return f.proto === 4 ? decodeIpv4(f, buf, p, end, Math.min(wireEnd, f.ipEnd), depth + 1) : decodeIpv6(f, buf, p, end, Math.min(wireEnd, f.ipEnd), depth + 1);
  }
  if (f.proto === 47 && p + 4 <= end) {
    const flags = (buf[p]! << 8) | buf[p + 1]!;
    if ((flags & 7) !== 0) return -1; // GRE version 0 only (not PPTP's enhanced GRE)
    const et = (buf[p + 2]! << 8) | buf[p + 3]!;
    const q = p + 4 + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) + (flags & 0x1000 ? 4 : 0);
    if ((et === ETH_IPV4 || et === ETH_IPV6) && q < end) {
      f.encap |= ENCAP_GRE;
      return decodeEtherType(f, buf, et, q, end, Math.min(wireEnd, f.ipEnd), depth + 1);
    }
    // Transparent Ethernet bridging: an Ethernet frame (with its VLAN tags) inside.
    if (et === 0x6558 && q + 14 <= end) {
      let inner = (buf[q + 12]! << 8) | buf[q + 13]!;
      let r = q + 14;
      while (isVlanTpid(inner) && r + 4 <= end) {
        inner = (buf[r + 2]! << 8) | buf[r + 3]!;
        r += 4;
      }
      if (inner === ETH_IPV4 || inner === ETH_IPV6) {
        f.encap |= ENCAP_GRE;
        return decodeEtherType(f, buf, inner, r, end, Math.min(wireEnd, f.ipEnd), depth + 1);
      }
    }
  }
  return -1;
}

function malformed(f: Frame, why: string): Kind {
  f.kind = Kind.Malformed;
  f.problem = why;
  return Kind.Malformed;
}

function decodeIpv4(f: Frame, buf: Buffer, p: number, capEnd: number, wireEnd: number, depth = 0): Kind {
  if (p + 20 > capEnd) return malformed(f, 'IPv4 header not fully captured');
  const vihl = buf[p]!;
  if (vihl >> 4 !== 4) return malformed(f, `IPv4 header with version ${vihl >> 4}`);
  const hl = (vihl & 15) * 4;
  if (hl < 20) return malformed(f, `IPv4 header length ${hl} is less than 20`);
  if (p + hl > capEnd) return malformed(f, 'IPv4 options not fully captured');
  let total = (buf[p + 2]! << 8) | buf[p + 3]!;
  if (total < hl) {
    // Wireshark's TSO support: a zero total length means "use the frame's length".
    if (total === 0) total = wireEnd - p;
    else return malformed(f, `IPv4 total length ${total} is less than its header length ${hl}`);
  }
  f.ipOff = p;
  f.ipVersion = 4;
  f.ipHeaderLen = hl;
  f.srcOff = p + 12;
  f.dstOff = p + 16;
  f.finalDstOff = p + 16;
  f.dstBuf = buf;
  f.ttl = buf[p + 8]!;
  const ipEnd = Math.min(p + total, wireEnd);
  f.ipEnd = ipEnd;
  f.proto = buf[p + 9]!;
  f.l4Off = p + hl;
  f.l4Len = Math.max(0, ipEnd - (p + hl));
  const fo = (buf[p + 6]! << 8) | buf[p + 7]!;
  const more = (fo & 0x2000) !== 0;
  const offset = (fo & 0x1fff) * 8;
  if (more || offset !== 0) {
    f.fragMore = more;
    f.fragOffset = offset;
    f.fragId = (buf[p + 4]! << 8) | buf[p + 5]!;
    f.isFragment = true;
    f.kind = Kind.Fragment;
    return Kind.Fragment;
  }
  if (f.proto === 4 || f.proto === 41 || f.proto === 47) {
    const inner = decodeTunnel(f, buf, capEnd, wireEnd, depth);
    if (inner !== -1) return inner;
    restoreOuter(f, p, 4);
  }
  return decodeL4(f, buf, f.l4Off, f.l4Len, capEnd);
}

function decodeIpv6(f: Frame, buf: Buffer, p: number, capEnd: number, wireEnd: number, depth = 0): Kind {
  if (p + 40 > capEnd) return malformed(f, 'IPv6 header not fully captured');
  if (buf[p]! >> 4 !== 6) return malformed(f, `IPv6 header with version ${buf[p]! >> 4}`);
  let plen = (buf[p + 4]! << 8) | buf[p + 5]!;
  if (plen === 0) plen = Math.max(0, wireEnd - p - 40);
  f.ipOff = p;
  f.ipVersion = 6;
  f.srcOff = p + 8;
  f.dstOff = p + 24;
  f.finalDstOff = p + 24;
  f.dstBuf = buf;
  f.ttl = buf[p + 7]!;
  const ipEnd = Math.min(p + 40 + plen, wireEnd);
  f.ipEnd = ipEnd;
  let nh = buf[p + 6]!;
  let q = p + 40;
  let frag = false;
  for (let guard = 0; guard < 16; guard++) {
    if (nh === 0 || nh === 43 || nh === 60 || nh === 135 || nh === 139 || nh === 140) {
      if (q + 8 > capEnd) return malformed(f, 'IPv6 extension header not fully captured');
      const len = (buf[q + 1]! + 1) * 8;
      if (q + len > capEnd) return malformed(f, 'IPv6 extension header not fully captured');
      if (nh === 43 && buf[q + 3]! > 0) {
        // Routing header with segments left: the final destination (type 0: the last address; type 2,
        // Mobile IPv6: the home address; type 4, segment routing: segment 0).
        const rt = buf[q + 2]!;
        const at = rt === 0 ? q + 8 + 16 * Math.floor((len - 8) / 16 - 1) : rt === 2 || rt === 4 ? q + 8 : -1;
        if (at >= q + 8 && at + 16 <= q + len) {
          f.finalDstOff = at;
          f.dstBuf = buf;
        } else if (rt === 3) rplFinalDestination(f, buf, q, len, p + 24);
      }
      nh = buf[q]!;
      q += len;
    } else if (nh === 51) {
      if (q + 8 > capEnd) return malformed(f, 'IPv6 AH header not fully captured');
      const len = (buf[q + 1]! + 2) * 4;
      nh = buf[q]!;
      q += len;
    } else if (nh === 44) {
      if (q + 8 > capEnd) return malformed(f, 'IPv6 fragment header not fully captured');
      const fo = (buf[q + 2]! << 8) | buf[q + 3]!;
      const offset = fo & 0xfff8;
      const more = (fo & 1) !== 0;
      const next = buf[q]!;
      const id = buf.readUInt32BE(q + 4);
      q += 8;
      nh = next;
      if (offset !== 0 || more) {
        frag = true;
        f.fragOffset = offset;
        f.fragMore = more;
        f.fragId = id;
        break;
      }
    } else break;
  }
  f.ipHeaderLen = q - p;
  f.proto = nh;
  f.l4Off = q;
  f.l4Len = Math.max(0, ipEnd - q);
  if (frag) {
    f.isFragment = true;
    f.kind = Kind.Fragment;
    return Kind.Fragment;
  }
  if (nh === 4 || nh === 41 || nh === 47) {
    const inner = decodeTunnel(f, buf, capEnd, wireEnd, depth);
    if (inner !== -1) return inner;
    restoreOuter(f, p, 6);
  }
  return decodeL4(f, buf, f.l4Off, f.l4Len, capEnd);
}

/** After a tunnel that did not decode, the frame is the outer packet again (fields may be overwritten). */
function restoreOuter(f: Frame, p: number, version: 4 | 6): void {
  const b = f.buf;
  f.ipOff = p;
  f.ipVersion = version;
  f.isFragment = false;
  if (version === 4) {
    const hl = (b[p]! & 15) * 4;
    f.ipHeaderLen = hl;
    f.srcOff = p + 12;
    f.dstOff = p + 16;
    f.finalDstOff = p + 16;
    f.dstBuf = b;
    f.proto = b[p + 9]!;
    f.l4Off = p + hl;
  } else {
    f.srcOff = p + 8;
    f.dstOff = p + 24;
    f.finalDstOff = p + 24;
    f.dstBuf = b;
  }
}

/**
 * An RPL source routing header (RFC 6554, routing type 3) at buf[q, q + len) with segments left: the
 * final destination is its last address, of which the header keeps 16 - CmprE bytes (the first CmprE
 * come from the IPv6 destination at `dst`), as Wireshark takes it.
 */
function rplFinalDestination(f: Frame, buf: Buffer, q: number, len: number, dst: number): void {
  const cmprI = buf[q + 4]! >> 4;
  const cmprE = buf[q + 4]! & 15;
  const pad = buf[q + 5]! >> 4;
  const room = len - 8 - pad - (16 - cmprE);
  if (room < 0 || room % (16 - cmprI) !== 0) return;
  const last = q + 8 + room;
  buf.copy(f.rplDst, 0, dst, dst + cmprE);
  buf.copy(f.rplDst, cmprE, last, last + 16 - cmprE);
  f.dstBuf = f.rplDst;
  f.finalDstOff = 0;
}

/** Decodes TCP or UDP at buf[off] with `len` reported bytes, of which those before capEnd are present. */
export function decodeL4(f: Frame, buf: Buffer, off: number, len: number, capEnd: number): Kind {
  const cap = Math.min(len, capEnd - off);
  if (f.proto === 6) {
    if (cap < 16) {
      f.sport = f.dport = -1;
      return l4bad(f, 'TCP header not fully captured');
    }
    f.sport = (buf[off]! << 8) | buf[off + 1]!;
    f.dport = (buf[off + 2]! << 8) | buf[off + 3]!;
    f.seq = ((buf[off + 4]! << 24) | (buf[off + 5]! << 16) | (buf[off + 6]! << 8) | buf[off + 7]!) >>> 0;
    f.ack = ((buf[off + 8]! << 24) | (buf[off + 9]! << 16) | (buf[off + 10]! << 8) | buf[off + 11]!) >>> 0;
    f.tcpHeaderLen = (buf[off + 12]! >> 4) * 4;
    f.tcpFlags = ((buf[off + 12]! & 0x0f) << 8) | buf[off + 13]!;
    f.payloadOff = off + f.tcpHeaderLen;
    f.payloadLen = Math.max(0, len - f.tcpHeaderLen);
    if (f.tcpHeaderLen < 20) return l4bad(f, `bogus TCP header length ${f.tcpHeaderLen}`);
    if (cap < f.tcpHeaderLen) return l4bad(f, 'TCP header not fully captured');
    f.kind = Kind.Tcp;
    return Kind.Tcp;
  }
  if (f.proto === 17) {
    if (cap < 8) {
      f.sport = f.dport = -1;
      return l4bad(f, 'UDP header not fully captured');
    }
    f.sport = (buf[off]! << 8) | buf[off + 1]!;
    f.dport = (buf[off + 2]! << 8) | buf[off + 3]!;
    f.udpLen = (buf[off + 4]! << 8) | buf[off + 5]!;
    f.payloadOff = off + 8;
    f.payloadLen = Math.max(0, Math.min(len, f.udpLen) - 8);
    if (f.udpLen < 8) return l4bad(f, `bogus UDP length ${f.udpLen}`);
    f.kind = Kind.Udp;
    return Kind.Udp;
  }
  f.kind = Kind.IpOther;
  return Kind.IpOther;
}

function l4bad(f: Frame, why: string): Kind {
  f.kind = Kind.L4Malformed;
  f.problem = why;
  return Kind.L4Malformed;
}

// ------------------------------------------------------------------------------------------------
// Address text

export function ipv4Text(b: Uint8Array, o: number): string {
  return `${b[o]}.${b[o + 1]}.${b[o + 2]}.${b[o + 3]}`;
}

/** RFC 5952 text of the IPv6 address at b[o, o + 16) (as Wireshark prints it). */
export function ipv6Text(b: Uint8Array, o: number): string {
  const w = ipv6Words;
  for (let i = 0; i < 8; i++) w[i] = (b[o + 2 * i]! << 8) | b[o + 2 * i + 1]!;
  // IPv4-mapped addresses as inet_ntop writes them.
  if (w[0] === 0 && w[1] === 0 && w[2] === 0 && w[3] === 0 && w[4] === 0 && w[5] === 0xffff) {
    return `::ffff:${b[o + 12]}.${b[o + 13]}.${b[o + 14]}.${b[o + 15]}`;
  }
  // The longest run of two or more zero words (the first of equals) becomes "::".
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (w[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  let s = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      s += '::';
      i += bestLen - 1;
      continue;
    }
    if (s !== '' && !s.endsWith(':')) s += ':';
    s += w[i]!.toString(16);
  }
  return s;
}

const ipv6Words = new Uint16Array(8);

export function addrText(b: Uint8Array, o: number, version: number): string {
  return version === 4 ? ipv4Text(b, o) : ipv6Text(b, o);
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function macText(b: Uint8Array, o: number): string {
  return `${HEX2[b[o]!]}:${HEX2[b[o + 1]!]}:${HEX2[b[o + 2]!]}:${HEX2[b[o + 3]!]}:${HEX2[b[o + 4]!]}:${HEX2[b[o + 5]!]}`;
}
