/**
 * PCAP parity with tshark, live (issue 24): every capture in tests/fixtures/pcap (link types Ethernet,
 * raw IP, SLL/SLL2, null/loopback, PPP, PPP in HDLC framing, Cisco HDLC, NFLOG, IEEE 802.11 with and
 * without radiotap; tunnels GRE, GTP-U, VXLAN, Geneve, Teredo, IP-in-IP, 6in4, IPv6-in-IPv6, MPLS,
 * PPPoE, stacked 802.1Q; IPv6 extension and routing headers, RPL's included; fragments, also inside
 * tunnels and of a tunnel's outer packet) gives the same conversation table as the
 * installed `tshark -q -z conv,tcp -z conv,udp`. The golden files (pcap.test.ts) keep the check
 * without tshark; this one proves them against the tshark of the machine (.ci/run installs it) and
 * is skipped, with the reason printed, where tshark is missing.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeBuffer } from './analyze';
import { formatTsharkConversations } from './tshark-format';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/fixtures/pcap');
const fixtures = fs.readdirSync(fixtureDir).filter((f) => /\.(pcap|pcapng)$/.test(f));

function tsharkVersion(): string | null {
  try {
    return execFileSync('tshark', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0] ?? 'tshark';
  } catch {
    return null;
  }
}
const version = tsharkVersion();
if (!version) console.log('PCAP parity with tshark SKIPPED: tshark is not installed (apt-get install tshark; .ci/run installs it). The golden files of pcap.test.ts still apply.');

/** tshark's table of one capture (it exits non-zero on a cut-short capture but still prints the statistics). */
const tshark = (file: string) =>
  new Promise<string>((resolve) => {
    execFile('tshark', ['-q', '-z', 'conv,tcp', '-z', 'conv,udp', '-r', file], { encoding: 'utf8', maxBuffer: 64 << 20 }, (_err, stdout) => resolve(stdout));
  });

describe.skipIf(!version)(`conversations equal ${version ?? 'tshark'}'s on every test capture`, () => {
  it('covers the link types and tunnels of issue 24', () => {
    for (const name of ['tunnels-fragments.pcap', 'ppp.pcap', 'ppp-hdlc.pcap', 'cisco-hdlc.pcap', 'nflog.pcap', 'ieee80211.pcap', 'radiotap.pcap', 'tunnels.pcap', 'ipv6-routing.pcap', 'encapsulations.pcap', 'sll2.pcap', 'null-le.pcap', 'raw-101.pcap', 'ipv4-fragments.pcap', 'vlan-qinq.pcap']) {
      expect(fixtures, name).toContain(name);
    }
  });

  it(`every fixture (${fixtures.length}) prints tshark's rows exactly`, { timeout: 240_000 }, async () => {
    const differ: string[] = [];
    // Four tshark processes at a time.
    const queue = [...fixtures];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let name = queue.shift(); name; name = queue.shift()) {
          const file = path.join(fixtureDir, name);
          const expected = await tshark(file);
          const ours = formatTsharkConversations(analyzeBuffer(fs.readFileSync(file)).rows);
          if (ours !== expected) differ.push(`${name}:\n--- tshark\n${expected}\n--- vigil\n${ours}`);
        }
      }),
    );
    expect(differ).toEqual([]);
  });
});
