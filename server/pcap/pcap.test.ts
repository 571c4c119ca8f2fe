import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeBuffer, CaptureAnalyzer, type Analysis } from './analyze';
import { assess, STATUS_COMPLETE, STATUS_INVALID, STATUS_TOO_MANY_IPS, TCP_OR_UDP_MESSAGE } from './assess';
import { fixed9, formatSize, formatTsharkConversations, printfFixed, printfFixedExact } from './tshark-format';
import { writeProcessedCapture } from './transform';
import { Anonymizer } from './anonymize';
import * as B from './testing/builder';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/fixtures/pcap');
const fixtures = fs.readdirSync(fixtureDir).filter((f) => /\.(pcap|pcapng)$/.test(f));
const read = (name: string) => fs.readFileSync(path.join(fixtureDir, name));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pcap-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function analyzeChunked(buf: Buffer, seed: number): Analysis {
  const rnd = B.prng(seed);
  const a = new CaptureAnalyzer();
  for (let i = 0; i < buf.length; ) {
    const n = 1 + Math.floor(rnd() * (rnd() < 0.3 ? 8 : 3000));
    a.push(buf.subarray(i, i + n));
    i += n;
  }
  return a.end();
}

describe('conversations match tshark 4.0 golden files', () => {
  it('has a golden file for every fixture', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
    for (const f of fixtures) expect(fs.existsSync(path.join(fixtureDir, `${f}.golden.txt`)), f).toBe(true);
  });

  for (const name of fixtures) {
    it(`${name}: same conversation table as tshark, whole and in random chunks`, () => {
      const golden = fs.readFileSync(path.join(fixtureDir, `${name}.golden.txt`), 'utf8');
      const buf = read(name);
      expect(formatTsharkConversations(analyzeBuffer(buf).rows)).toBe(golden);
      expect(formatTsharkConversations(analyzeChunked(buf, name.length).rows)).toBe(golden);
    });
  }
});

describe('container reading', () => {
  it('refuses a file that is not a capture from its first bytes', () => {
    const a = new CaptureAnalyzer();
    a.push(Buffer.from('<!DOCTYPE html><html>'));
    expect(a.wantsMore).toBe(false);
    expect(a.error).toMatch(/not a pcap or pcapng capture: it starts with 3c 21 44 4f 43 54 59 50 \("<!DOCTYP"\)/);
  });

  it('says what an empty, tiny or gzip file is', () => {
    expect(analyzeBuffer(Buffer.alloc(0)).reader.error).toBe('The file is empty.');
    expect(analyzeBuffer(Buffer.from([0xd4, 0xc3])).reader.error).toMatch(/too short/);
    expect(analyzeBuffer(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0])).reader.error).toMatch(/gzip/);
    expect(analyzeBuffer(read('eth-le-usec.pcap').subarray(0, 10)).reader.error).toMatch(/inside its 24-byte pcap file header/);
  });

  it('keeps the complete packets of a capture cut short and says where it was cut', () => {
    const full = read('eth-le-usec.pcap');
    const all = analyzeBuffer(full).reader.packets;
    // Cut inside packet 3: its record starts after the header and two records.
    const r1 = 24 + 16 + full.readUInt32LE(24 + 8);
    const r2 = r1 + 16 + full.readUInt32LE(r1 + 8);
    const cut = r2 + 20;
    const a = analyzeBuffer(full.subarray(0, cut));
    expect(all).toBeGreaterThan(3);
    expect(a.reader.packets).toBe(2);
    expect(a.reader.truncation).toEqual({ frame: 3, atByte: cut, kept: 2 });
    expect(a.reader.notes).toContain(`The capture is cut short inside packet 3 at byte ${cut}; 2 complete packets kept.`);
    const s = assess(a, { anonymizeIp: false, anonymizeMac: false });
    expect(s.status).toBe(STATUS_COMPLETE);
    expect(s.notifications.some((x) => x.level === 'warning' && x.message.includes('cut short inside packet 3'))).toBe(true);
  });

  it('stops at an impossible record length and keeps what came before', () => {
    const full = Buffer.from(read('eth-le-usec.pcap'));
    const r1 = 24 + 16 + full.readUInt32LE(24 + 8);
    full.writeUInt32LE(0x7fffffff, r1 + 8);
    const a = analyzeBuffer(full);
    expect(a.reader.packets).toBe(1);
    expect(a.reader.error).toMatch(/Packet 2 \(at byte \d+\) claims a captured length of 2147483647 bytes/);
  });

  it('skips unknown pcapng blocks without buffering them, and reads both byte orders and resolutions', () => {
    const a = analyzeBuffer(read('multi-interface.pcapng'));
    expect(a.reader.format).toBe('pcapng');
    expect(a.reader.interfaces.map((i) => [i.linkType, i.unitsPerSec, i.section])).toEqual([
      [1, 1e6, 0],
      [101, 1e9, 0],
      [113, 2 ** 20, 0],
      [276, 1e6, 1],
      [1, 1e3, 1],
    ]);
    expect(a.reader.notes.some((n) => n.includes('type 0x00000bad'))).toBe(true);
    // A 5 MB unknown block in 64 KiB chunks: skipped, never buffered.
    const big = B.buildPcapng([{ interfaces: [{ linkType: 1 }], packets: [], extraBlocks: [[0x12345678, Buffer.alloc(5 << 20)]] }]);
    const tail = B.buildPcapngSection({ interfaces: [{ linkType: 1 }], packets: [{ ts: [1, 0], data: B.eth({ type: 0x0800, payload: B.ipPacket('1.1.1.1', '2.2.2.2', 17, B.udp(1, 2)) }) }] });
    const an = new CaptureAnalyzer();
    const all = Buffer.concat([big, tail]);
    for (let i = 0; i < all.length; i += 65536) an.push(all.subarray(i, i + 65536));
    const res = an.end();
    expect(res.reader.error).toBeNull();
    expect(res.rows).toHaveLength(1);
  });
});

describe('upload assessment', () => {
  const check = (name: string, opts = { anonymizeIp: false, anonymizeMac: false }) => assess(analyzeBuffer(read(name)), opts);

  it('a two-IP Ethernet capture with TCP and UDP', () => {
    const s = check('eth-le-usec.pcap');
    expect(s.status).toBe(STATUS_COMPLETE);
    expect(s.flags).toEqual({
      valid_upload: true,
      has_two_ips: true,
      contains_udp: true,
      remove_non_ip_info: false,
      converted: false,
      stripped_vlan_tags: false,
      anonymized_ip: false,
      anonymized_mac: false,
      layer_2_exists: true,
    });
    expect(s.notifications).toContainEqual({ level: 'warning', message: TCP_OR_UDP_MESSAGE });
    const first = s.conversations[0]!;
    expect(first).toMatchObject({ source_address: '192.168.10.5', dest_address: '203.0.113.80', protocol: 'udp', service: 'dns', source_port: 53001, dest_port: 53, info: 'DNS query A updates.example.com' });
    expect(first.timestamp).toBe('2023-11-14T22:13:20.123456000Z');
    const web = s.conversations.find((x) => x.dest_port === 80)!;
    expect(web.info).toBe('HTTP GET /payload.bin HTTP/1.1 (Host: updates.example.com)');
    expect(web.data_size).toBe(web.bytes_a_to_b + web.bytes_b_to_a);
  });

  it('VLAN tags stripped and non-IP frames removed, with what and how many', () => {
    const s = check('vlan-qinq.pcap');
    expect(s.flags.stripped_vlan_tags).toBe(true);
    expect(s.flags.remove_non_ip_info).toBe(true);
    expect(s.notifications.map((x) => x.message)).toEqual(expect.arrayContaining(['Removed 2 non-IP frames (ARP 1, LLDP 1).', expect.stringMatching(/^Stripped VLAN tags from \d+ packets \(VLAN 20, 100\)\.$/)]));
  });

  it('captures without layer 2 are converted', () => {
    for (const name of ['sll.pcap', 'sll2.pcap', 'raw-101.pcap', 'null-le.pcap', 'loop.pcap']) {
      const s = check(name);
      expect(s.flags.layer_2_exists, name).toBe(false);
      expect(s.flags.converted, name).toBe(true);
      expect(s.notifications.some((x) => x.message.startsWith('Added Ethernet headers')), name).toBe(true);
    }
    expect(check('big-endian.pcapng').notifications.map((x) => x.message)).toContain('Converted the pcapng capture to pcap.');
  });

  it('more than two unique IPs is an error naming them', () => {
    const s = check('three-ips.pcap');
    expect(s.status).toBe(STATUS_TOO_MANY_IPS);
    expect(s.flags.has_two_ips).toBe(false);
    expect(s.flags.valid_upload).toBe(true);
    expect(s.notifications.find((x) => x.level === 'error')?.message).toMatch(/3 unique IP addresses \(10\.0\.1\.1, 10\.0\.1\.2, 10\.0\.1\.3\)/);
  });

  it('no conversations, unsupported link type or not a capture is an invalid PCAP', () => {
    const u = check('unsupported-link.pcap');
    expect(u.status).toBe(STATUS_INVALID);
    expect(u.notifications.map((x) => x.message)).toContain('Link type 147 is not supported: 1 packet removed.');
    const arp = check('arp-only.pcap');
    expect(arp.status).toBe(STATUS_INVALID);
    expect(arp.flags.remove_non_ip_info).toBe(true);
    expect(assess(analyzeBuffer(Buffer.from('hello world, not a capture')), { anonymizeIp: false, anonymizeMac: false }).status).toBe(STATUS_INVALID);
  });

  it('broadcast and multicast destinations raise warnings', () => {
    const s = check('broadcast-multicast.pcap');
    const w = s.notifications.filter((x) => x.message.includes('converted to unicast')).map((x) => x.message);
    expect(w).toEqual([
      'Conversation 1: destination 192.168.50.255 is a broadcast address; the traffic will be converted to unicast.',
      'Conversation 2: destination 255.255.255.255 is a broadcast address; the traffic will be converted to unicast.',
      'Conversation 3: destination 224.0.0.251 is a multicast address; the traffic will be converted to unicast.',
      'Conversation 4: destination 239.255.255.250 is a multicast address; the traffic will be converted to unicast.',
      'Conversation 5: destination ff02::fb is a multicast address; the traffic will be converted to unicast.',
    ]);
  });

  it('missed bytes come from TCP sequence gaps', () => {
    const s = check('two-ips-tcp.pcap');
    expect(s.conversations.map((x) => [x.dest_port, x.missed_bytes])).toEqual([
      [80, 0],
      [443, 1000],
    ]);
    expect(s.flags.contains_udp).toBe(false);
  });

  it('anonymized addresses are consistent and in the documented ranges', () => {
    const s = check('eth-le-usec.pcap', { anonymizeIp: true, anonymizeMac: true });
    expect(new Set(s.conversations.map((x) => x.source_address))).toEqual(new Set(['10.0.0.1']));
    expect(new Set(s.conversations.map((x) => x.dest_address))).toEqual(new Set(['10.0.0.2']));
    expect(s.mapping.ip).toEqual([
      ['192.168.10.5', '10.0.0.1'],
      ['203.0.113.80', '10.0.0.2'],
    ]);
    expect(s.mapping.mac[0]).toEqual(['00:1b:21:3a:4f:01', '02:00:00:00:00:01']);
    const v6 = check('ipv6.pcap', { anonymizeIp: true, anonymizeMac: false });
    expect(v6.conversations[0]).toMatchObject({ source_address: 'fd00::1', dest_address: 'fd00::2' });
  });
});

describe('formatting as tshark does', () => {
  it('printf rounding is exact and ties go to even', () => {
    expect(printfFixed(0.03125, 4)).toBe('0.0312');
    expect(printfFixed(0.09375, 4)).toBe('0.0938');
    expect(printfFixed(1700000800.000001, 9)).toBe('1700000800.000000954');
    expect(printfFixed(-1.5, 9)).toBe('-1.500000000');
    expect(printfFixed(0, 4)).toBe('0.0000');
    expect(printfFixed(-0.00001, 4)).toBe('-0.0000');
  });
  it('the fast printf path agrees with exact arithmetic on times as captures produce them', () => {
    const rnd = B.prng(11);
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      // relative seconds + nanoseconds (as toSec builds them), µs-aligned ones, halves and small values
      const s = Math.floor(rnd() * 100_000);
      const ns = Math.floor(rnd() * 1e9);
      values.push(s + ns / 1e9, s + (Math.floor(ns / 1000) * 1000) / 1e9, (s + ns / 1e9) * (rnd() < 0.5 ? -1 : 1), s / 2 ** Math.floor(rnd() * 12), rnd() * 1e-6);
    }
    for (const d of [4, 9]) {
      const wrong = values.filter((x) => printfFixed(x, d) !== printfFixedExact(x, d));
      expect(wrong.slice(0, 5).map((x) => `${x}: ${printfFixed(x, d)} vs ${printfFixedExact(x, d)}`)).toEqual([]);
    }
    // Relative start times [s, ns] print from their parts below 2^20 s, exactly as the double would.
    const times: [number, number][] = [[0, 0], [0, 999_999_999], [1_048_575, 999_999_999], [1_048_576, 1], [-1, -5], [86_399, 500_000_000]];
    for (let i = 0; i < 20_000; i++) times.push([Math.floor(rnd() * 2 ** (1 + Math.floor(rnd() * 20))), Math.floor(rnd() * 1e9)]);
    const wrongTimes = times.filter(([s, ns]) => fixed9([s, ns]) !== printfFixedExact(s + ns / 1e9, 9));
    expect(wrongTimes.slice(0, 5)).toEqual([]);
  });
  it('sizes as format_size', () => {
    expect([9999, 10000, 12504, 9_999_999, 10_000_000, 123_456_789_012].map(formatSize)).toEqual(['9999 bytes', '10 kB', '12 kB', '9999 kB', '10 MB', '123 GB']);
  });
});

/** Independent checks of a written pcap: valid header, IPv4 header and TCP/UDP checksums. */
function checkChecksums(file: string): { packets: number; bad: string[] } {
  const buf = fs.readFileSync(file);
  expect(buf.readUInt32LE(0) === 0xa1b2c3d4 || buf.readUInt32LE(0) === 0xa1b23c4d).toBe(true);
  expect(buf.readUInt32LE(20)).toBe(1);
  const sum = (b: Buffer, s: number, e: number, init = 0) => {
    let x = init;
    for (let i = s; i < e; i += 2) x += (b[i]! << 8) | (i + 1 < e ? b[i + 1]! : 0);
    while (x > 0xffff) x = (x & 0xffff) + (x >>> 16);
    return x;
  };
  const bad: string[] = [];
  let packets = 0;
  for (let p = 24; p + 16 <= buf.length; ) {
    const cap = buf.readUInt32LE(p + 8);
    const orig = buf.readUInt32LE(p + 12);
    const f = p + 16;
    packets++;
    const et = buf.readUInt16BE(f + 12);
    const ip = f + 14;
    if (et === 0x0800) {
      const hl = (buf[ip]! & 15) * 4;
      if (sum(buf, ip, ip + hl) !== 0xffff) bad.push(`packet ${packets}: IPv4 header checksum`);
      const total = buf.readUInt16BE(ip + 2);
      const frag = buf.readUInt16BE(ip + 6) & 0x3fff;
      const proto = buf[ip + 9]!;
      if (!frag && cap === orig && (proto === 6 || proto === 17)) {
        const l4 = ip + hl;
        const len = total - hl;
        if (!(proto === 17 && buf.readUInt16BE(l4 + 6) === 0)) {
          const pseudo = sum(buf, ip + 12, ip + 20) + proto + len;
          if (sum(buf, l4, l4 + len, pseudo) !== 0xffff) bad.push(`packet ${packets}: ${proto === 6 ? 'TCP' : 'UDP'} checksum`);
        }
      }
    } else if (et === 0x86dd) {
      const nh = buf[ip + 6]!;
      const len = buf.readUInt16BE(ip + 4);
      if ((nh === 6 || nh === 17) && cap === orig) {
        const pseudo = sum(buf, ip + 8, ip + 40) + nh + len;
        if (sum(buf, ip + 40, ip + 40 + len, pseudo) !== 0xffff) bad.push(`packet ${packets}: IPv6 ${nh === 6 ? 'TCP' : 'UDP'} checksum`);
      }
    }
    p = f + cap;
  }
  return { packets, bad };
}

describe('processed capture', () => {
  const run = async (name: string, opts: { keep?: number[]; anonymizeIp?: boolean; anonymizeMac?: boolean } = {}) => {
    const input = path.join(fixtureDir, name);
    const a = analyzeBuffer(read(name));
    const s = assess(a, { anonymizeIp: !!opts.anonymizeIp, anonymizeMac: !!opts.anonymizeMac });
    const out = path.join(tmp, `${name}.out.pcap`);
    const res = await writeProcessedCapture(input, out, `${out}.idx`, {
      keepRows: opts.keep ? new Set(opts.keep) : null,
      anonymizeIp: !!opts.anonymizeIp,
      anonymizeMac: !!opts.anonymizeMac,
      mapping: s.mapping,
      nanosecond: s.summary.nanosecond,
      hasFragments: s.summary.hasFragments,
    });
    return { a, s, res, out, again: analyzeBuffer(fs.readFileSync(out)) };
  };

  it('keeps frames, times and conversations of an Ethernet capture; anonymizes with valid checksums', async () => {
    const { a, res, out, again } = await run('eth-le-usec.pcap', { anonymizeIp: true, anonymizeMac: true });
    expect(res.packets).toBe(a.counts.conversation);
    const strip = (rows: Analysis['rows']) => rows.map((r) => [r.protocol, r.portA, r.portB, r.framesAtoB, r.framesBtoA, r.bytesAtoB, r.bytesBtoA, r.relStart, r.relStop]);
    expect(strip(again.rows)).toEqual(strip(a.rows));
    expect(new Set(again.rows.flatMap((r) => [r.addressA, r.addressB]))).toEqual(new Set(['10.0.0.1', '10.0.0.2']));
    expect(new Set(again.rows.flatMap((r) => [r.macA, r.macB]))).toEqual(new Set(['02:00:00:00:00:01', '02:00:00:00:00:02']));
    expect(checkChecksums(out)).toEqual({ packets: res.packets, bad: [] });
    // The original capture's checksums were valid too (the builder computes them).
    expect(checkChecksums(path.join(fixtureDir, 'eth-le-usec.pcap')).bad).toEqual([]);
    expect(fs.statSync(`${out}.idx`).size).toBe(8 * res.packets);
  });

  it('filters to the remaining conversations', async () => {
    const { a, again } = await run('eth-le-usec.pcap', { keep: [1, 2] });
    expect(again.rows.map((r) => r.protocol)).toEqual(['tcp', 'tcp']);
    expect(again.counts.conversation).toBe(a.rows[1]!.framesAtoB + a.rows[1]!.framesBtoA + a.rows[2]!.framesAtoB + a.rows[2]!.framesBtoA);
  });

  it('strips VLAN tags, drops non-IP frames and synthesizes Ethernet for other link types', async () => {
    for (const name of ['vlan-qinq.pcap', 'sll.pcap', 'sll2-ipv6.pcap', 'raw-101-mixed.pcap', 'null-be.pcap', 'multi-interface.pcapng', 'ipv6.pcap']) {
      const { a, res, out, again } = await run(name, { anonymizeIp: true });
      expect(res.packets, name).toBe(again.reader.packets);
      expect(again.counts.conversation, name).toBe(a.counts.conversation);
      expect(again.reader.interfaces.map((i) => i.linkType), name).toEqual([1]);
      expect(again.counts.nonIp.size, name).toBe(0);
      expect(again.counts.vlanTagged, name).toBe(0);
      expect(again.rows.length, name).toBe(a.rows.length);
      expect(again.rows.map((r) => r.framesAtoB + r.framesBtoA), name).toEqual(a.rows.map((r) => r.framesAtoB + r.framesBtoA));
      expect(checkChecksums(out).bad, name).toEqual([]);
    }
  });

  it('keeps every fragment of a kept datagram', async () => {
    const udp = await run('ipv4-fragments.pcap', { keep: [0] });
    expect(udp.a.rows[0]).toMatchObject({ protocol: 'udp', portA: 5060, framesAtoB: 1, framesBtoA: 1 });
    // The datagram's three fragments and the packet before them.
    expect(udp.again.reader.packets).toBe(4);
    expect(udp.again.rows).toHaveLength(1);
    expect(udp.again.counts.incompleteDatagrams).toBe(0);
    const tcp = await run('ipv4-fragments.pcap', { keep: [1] });
    expect(tcp.a.rows[1]).toMatchObject({ protocol: 'tcp', portA: 33000 });
    expect(tcp.again.reader.packets).toBe(2);
    expect(tcp.again.rows.map((r) => r.framesAtoB)).toEqual([1]);
  });

  it('keeps nanosecond time stamps when the source has them', async () => {
    const { again, a } = await run('eth-be-nsec.pcap');
    expect(again.reader.nanosecond).toBe(true);
    expect(again.rows.map((r) => r.relStart)).toEqual(a.rows.map((r) => r.relStart));
  });
});

describe('anonymizer', () => {
  it('maps consistently, skips .0/.255 hosts, keeps special addresses and continues a stored mapping', () => {
    const an = new Anonymizer();
    expect(['8.8.8.8', '1.1.1.1', '8.8.8.8', '192.168.1.255', '255.255.255.255', '224.0.0.1', '0.0.0.0'].map((x) => an.ipText(x))).toEqual([
      '10.0.0.1',
      '10.0.0.2',
      '10.0.0.1',
      '10.255.0.255',
      '255.255.255.255',
      '224.0.0.1',
      '0.0.0.0',
    ]);
    for (let i = 0; i < 300; i++) an.ipText(`9.9.${Math.floor(i / 250)}.${i % 250}`);
    expect(an.ipPairs.every(([, to]) => !to.endsWith('.0') && (!to.endsWith('.255') || to.startsWith('10.255.')))).toBe(true);
    const again = new Anonymizer(an.mapping);
    expect(again.ipText('1.1.1.1')).toBe('10.0.0.2');
    expect(again.ipText('7.7.7.7')).toBe(an.ipText('7.7.7.7'));
    expect(again.ipText('2001:db8::1')).toBe('fd00::1');
    expect(again.macText('ff:ff:ff:ff:ff:ff')).toBe('ff:ff:ff:ff:ff:ff');
  });
});
