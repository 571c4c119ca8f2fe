/**
 * Synthetic captures, generated fast in chunks: for the benchmark and the end-to-end upload
 * measurement (written to a file), and for warming up the parser when the director starts (parsed in
 * memory). Mixed TCP (handshake, data both ways, FIN) and UDP conversations between many hosts, some
 * IPv6, some VLAN-tagged, a few ARP frames; interleaved; about 800 bytes per packet on average.
 * TCP/UDP checksums are left zero (neither tshark nor our parser checks them).
 */
import fs from 'node:fs';
import { ipv4HeaderChecksum } from './checksum';

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SynthResult {
  bytes: number;
  packets: number;
  conversations: number;
}

interface Conv {
  tcp: boolean;
  v6: boolean;
  vlan: number;
  a: Buffer;
  b: Buffer;
  pa: number;
  pb: number;
  seqA: number;
  seqB: number;
  step: number;
  steps: number;
}

/** Writes a synthetic capture of about targetBytes to `file` (see synthesizeCapture). */
export function writeSyntheticCapture(file: string, targetBytes: number, seed = 1, lengthScale = 1): SynthResult {
  const fd = fs.openSync(file, 'w');
  try {
    return synthesizeCapture(targetBytes, (chunk) => fs.writeSync(fd, chunk), seed, lengthScale);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Generates a synthetic pcap of about targetBytes, handing it to `sink` in chunks of up to
 * chunkBytes (each chunk is valid only during the call: its buffer is reused).
 * @param lengthScale conversations are this many times longer (so a bigger capture can keep the
 *   number of conversations of a smaller one: memory depends on conversations, not on bytes)
 */
export function synthesizeCapture(targetBytes: number, sink: (chunk: Buffer) => void, seed = 1, lengthScale = 1, chunkBytes = 4 << 20): SynthResult {
  const rnd = prng(seed);
  const out = Buffer.alloc(chunkBytes);
  let pos = 0;
  let bytes = 0;
  let packets = 0;
  let conversations = 0;
  const flush = () => {
    sink(out.subarray(0, pos));
    bytes += pos;
    pos = 0;
  };
  out.writeUInt32LE(0xa1b2c3d4, 0);
  out.writeUInt16LE(2, 4);
  out.writeUInt16LE(4, 6);
  out.writeUInt32LE(262144, 16);
  out.writeUInt32LE(1, 20);
  pos = 24;
  const payload = Buffer.alloc(1500);
  for (let i = 0; i < payload.length; i++) payload[i] = 32 + Math.floor(rnd() * 90);
  let sec = 1_700_000_000;
  let usec = 0;
  const hosts = 400;
  const addr4 = (i: number) => Buffer.from([10, (i >> 8) & 255, i & 255, 1 + (i % 250)]);
  const addr6 = (i: number) => {
    const b = Buffer.alloc(16);
    b.writeUInt32BE(0x20010db8, 0);
    b.writeUInt32BE(i + 1, 12);
    return b;
  };
  const newConv = (): Conv => {
    conversations++;
    const v6 = rnd() < 0.1;
    const ha = Math.floor(rnd() * hosts);
    let hb = Math.floor(rnd() * hosts);
    if (hb === ha) hb = (hb + 1) % hosts;
    const tcp = rnd() < 0.7;
    return {
      tcp,
      v6,
      vlan: rnd() < 0.1 ? 1 + Math.floor(rnd() * 4000) : 0,
      a: v6 ? addr6(ha) : addr4(ha),
      b: v6 ? addr6(hb) : addr4(hb),
      pa: 1024 + Math.floor(rnd() * 60000),
      pb: [80, 443, 53, 22, 25, 8080, 445, 3389][Math.floor(rnd() * 8)]!,
      seqA: Math.floor(rnd() * 0xffffffff),
      seqB: Math.floor(rnd() * 0xffffffff),
      step: 0,
      steps: Math.round((tcp ? 6 + Math.floor(rnd() * 40) : 1 + Math.floor(rnd() * 30)) * lengthScale),
    };
  };
  const active: Conv[] = Array.from({ length: 64 }, newConv);
  const emit = (c: Conv, fromA: boolean, flags: number, plen: number) => {
    const l4 = c.tcp ? 20 : 8;
    const ipHdr = c.v6 ? 40 : 20;
    const l2 = 14 + (c.vlan ? 4 : 0);
    const caplen = l2 + ipHdr + l4 + plen;
    if (pos + 16 + caplen > out.length) flush();
    usec += 10 + Math.floor(rnd() * 400);
    if (usec >= 1e6) {
      sec += 1;
      usec -= 1e6;
    }
    out.writeUInt32LE(sec, pos);
    out.writeUInt32LE(usec, pos + 4);
    out.writeUInt32LE(caplen, pos + 8);
    out.writeUInt32LE(caplen, pos + 12);
    let p = pos + 16;
    out.fill(fromA ? 0x11 : 0x22, p, p + 6);
    out.fill(fromA ? 0x22 : 0x11, p + 6, p + 12);
    p += 12;
    if (c.vlan) {
      out.writeUInt16BE(0x8100, p);
      out.writeUInt16BE(c.vlan, p + 2);
      p += 4;
    }
    out.writeUInt16BE(c.v6 ? 0x86dd : 0x0800, p);
    p += 2;
    const src = fromA ? c.a : c.b;
    const dst = fromA ? c.b : c.a;
    const proto = c.tcp ? 6 : 17;
    if (c.v6) {
      out.writeUInt32BE(0x60000000, p);
      out.writeUInt16BE(l4 + plen, p + 4);
      out[p + 6] = proto;
      out[p + 7] = 64;
      src.copy(out, p + 8);
      dst.copy(out, p + 24);
    } else {
      out[p] = 0x45;
      out[p + 1] = 0;
      out.writeUInt16BE(20 + l4 + plen, p + 2);
      out.writeUInt32BE(0, p + 4);
      out[p + 8] = 64;
      out[p + 9] = proto;
      out.writeUInt16BE(0, p + 10);
      src.copy(out, p + 12);
      dst.copy(out, p + 16);
      out.writeUInt16BE(ipv4HeaderChecksum(out, p, 20), p + 10);
    }
    p += ipHdr;
    out.writeUInt16BE(fromA ? c.pa : c.pb, p);
    out.writeUInt16BE(fromA ? c.pb : c.pa, p + 2);
    if (c.tcp) {
      out.writeUInt32BE(fromA ? c.seqA : c.seqB, p + 4);
      out.writeUInt32BE(flags & 0x10 ? (fromA ? c.seqB : c.seqA) : 0, p + 8);
      out[p + 12] = 0x50;
      out[p + 13] = flags;
      out.writeUInt16BE(64240, p + 14);
      out.writeUInt32BE(0, p + 16);
      const adv = plen + (flags & 0x03 ? 1 : 0);
      if (fromA) c.seqA = (c.seqA + adv) >>> 0;
      else c.seqB = (c.seqB + adv) >>> 0;
    } else {
      out.writeUInt16BE(8 + plen, p + 4);
      out.writeUInt16BE(0, p + 6);
    }
    payload.copy(out, p + l4, 0, plen);
    pos += 16 + caplen;
    packets++;
  };
  while (bytes + pos < targetBytes) {
    const i = Math.floor(rnd() * active.length);
    const c = active[i]!;
    if (rnd() < 0.002) {
      // An ARP request now and then (non-IP).
      if (pos + 16 + 60 > out.length) flush();
      out.writeUInt32LE(sec, pos);
      out.writeUInt32LE(usec, pos + 4);
      out.writeUInt32LE(60, pos + 8);
      out.writeUInt32LE(60, pos + 12);
      out.fill(0xff, pos + 16, pos + 22);
      out.fill(0x33, pos + 22, pos + 28);
      out.writeUInt16BE(0x0806, pos + 28);
      out.fill(0, pos + 30, pos + 76);
      pos += 76;
      packets++;
    }
    if (c.tcp) {
      if (c.step === 0) emit(c, true, 0x02, 0);
      else if (c.step === 1) emit(c, false, 0x12, 0);
      else if (c.step === 2) emit(c, true, 0x10, 0);
      else if (c.step < c.steps - 3) {
        const fromA = rnd() < 0.4;
        emit(c, fromA, 0x18, 500 + Math.floor(rnd() * 960));
        if (rnd() < 0.3) emit(c, !fromA, 0x10, 0);
      } else if (c.step === c.steps - 3) emit(c, true, 0x11, 0);
      else if (c.step === c.steps - 2) emit(c, false, 0x11, 0);
      else emit(c, true, 0x10, 0);
    } else {
      emit(c, rnd() < 0.5, 0, 100 + Math.floor(rnd() * 1300));
    }
    c.step++;
    if (c.step >= c.steps) active[i] = newConv();
  }
  flush();
  return { bytes, packets, conversations };
}
