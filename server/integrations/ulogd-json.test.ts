import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeUlogd, normalizeUlogdText, parsePrefix } from './ulogd-json';

// Real ulogd2 2.0.8 output captured from the lab (npm run lab, lab/policy.nft, the lab evaluation run user -> server).
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'ulogd-lab.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);

describe('nftables/ulogd JSON normalizer', () => {
  it('normalizes each captured line: kernel time (UTC), addresses, ports, protocol, the rule prefix as description', () => {
    const events = lines.map((l) => normalizeUlogdText(l));
    expect(events.every((e) => e !== null)).toBe(true);
    expect(events.map((e) => [e!.description, e!.src_ip, e!.dest_ip, e!.dest_port, e!.proto, e!.alert, e!.severity])).toEqual([
      ['ALERT:high web admin port reached from another zone', '10.79.1.10', '10.79.2.10', 8443, 'TCP', true, 'high'],
      ['LOG:medium FTP control channel between zones', '10.79.1.10', '10.79.2.10', 21, 'TCP', false, 'medium'],
      ['LOG:medium FTP control channel between zones', '10.79.1.10', '10.79.2.10', 21, 'TCP', false, 'medium'],
      ['LOG:low SSH from the user zone', '10.79.1.10', '10.79.2.10', 22, 'TCP', false, 'low'],
      ['ALERT:critical Telnet between zones', '10.79.1.10', '10.79.2.10', 23, 'TCP', true, 'critical'],
      ['ALERT:medium DNS to a server other than the lab resolver', '10.79.1.10', '10.79.2.10', 53, 'UDP', true, 'medium'],
    ]);
    // A rule's match is a detection: none is merely suspicious (that would list it apart from the detected events).
    expect(events.filter((e) => e!.suspicious)).toEqual([]);
    // oob.time.sec 1795616699 + 932529 µs, not ulogd's zone-less local "timestamp".
    expect(events[0]!.occurred_at).toBe(new Date(1795616699 * 1000 + 932).toISOString());
    expect(events[0]!.src_port).toBe(46482);
    expect(JSON.parse(events[0]!.raw)['oob.in']).toBe('z-user');
  });

  it('the prefix says alert or log and the severity; other prefixes are plain detections', () => {
    expect(parsePrefix('ALERT:critical Telnet')).toEqual({ alert: true, severity: 'critical', text: 'Telnet' });
    expect(parsePrefix('log:Low ssh seen ')).toEqual({ alert: false, severity: 'low', text: 'ssh seen' });
    expect(parsePrefix('dropped by edge')).toEqual({ alert: false, severity: null, text: 'dropped by edge' });
    const plain = normalizeUlogd({ 'oob.prefix': 'dropped by edge', src_ip: '10.0.0.1', dest_ip: '10.0.0.2', 'ip.protocol': 132 });
    expect(plain).toMatchObject({ description: 'dropped by edge', alert: false, suspicious: false, severity: null, proto: 'SCTP', src_port: null });
  });

  it('a critical alert keeps its severity and is a detected event, not a suspicious one (the Telnet rule)', () => {
    const telnet = normalizeUlogd({ 'oob.prefix': 'ALERT:critical Telnet between zones', src_ip: '10.0.0.1', dest_ip: '10.0.0.2', dest_port: 23, 'ip.protocol': 6 });
    expect(telnet).toMatchObject({ alert: true, severity: 'critical', suspicious: false, description: 'ALERT:critical Telnet between zones' });
    expect(normalizeUlogd({ 'oob.prefix': 'LOG:High port probe', src_ip: '10.0.0.1' })).toMatchObject({ alert: false, severity: 'high', suspicious: false });
  });

  it('lines that are not logged packets are skipped; without kernel time the timestamp or now is used', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    expect(normalizeUlogdText('', now)).toBeNull();
    expect(normalizeUlogdText('not json', now)).toBeNull();
    expect(normalizeUlogdText('[1,2]', now)).toBeNull();
    expect(normalizeUlogdText('{"dvc":"Netfilter"}', now)).toBeNull();
    expect(normalizeUlogd({ src_ip: '10.0.0.1', timestamp: '2026-01-01T00:00:00Z' }, now)).toMatchObject({ occurred_at: '2026-01-01T00:00:00.000Z', description: 'nftables logged packet' });
    expect(normalizeUlogd({ src_ip: '10.0.0.1', timestamp: 'garbage', src_port: 70000 }, now)).toMatchObject({ occurred_at: now.toISOString(), src_port: null });
  });
});
