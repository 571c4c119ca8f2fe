/**
 * PCAP parity with tshark, live (issue 24): every capture in tests/fixtures/pcap (link types Ethernet,
 * raw IP, SLL/SLL2, null/loopback, PPP, PPP in HDLC framing, Cisco HDLC, NFLOG, IEEE 802.11 with and
 * without radiotap; tunnels GRE, GTP-U, VXLAN, Geneve, Teredo, IP-in-IP, 6in4, IPv6-in-IPv6, MPLS,
 * PPPoE, stacked 802.1Q; IPv6 extension and routing headers, RPL's included; fragments, also inside
 * tunnels and of a tunnel's outer packet) gives the same conversation table as the
 * installed `tshark -q -z conv,tcp -z conv,udp`. The golden files (pcap.test.ts) keep the check
 * without tshark; this one proves them against the tshark of the machine (.ci/run installs it) and
 * is skipped, with the reason printed, where tshark is missing.
 * tshark's table of a capture is kept in node_modules/.cache/tshark-parity/, named by a hash of the
 * capture's bytes, tshark's arguments and its whole `--version` text: a run after the first on a
 * machine compares against the same tshark's output without starting it 90 times (about 0.5 s of CPU
 * each); a changed capture or another tshark is asked again. VIGIL_TSHARK_FRESH=1 asks it for every one.
 */
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeBuffer } from './analyze';
import { formatTsharkConversations } from './tshark-format';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/fixtures/pcap');
const fixtures = fs.readdirSync(fixtureDir).filter((f) => /\.(pcap|pcapng)$/.test(f));

/** `tshark --version`'s whole text (its libraries' versions too), or null without tshark. */
function tsharkVersionText(): string | null {
  try {
    return execFileSync('tshark', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}
const versionText = tsharkVersionText();
const version = versionText === null ? null : (versionText.split('\n')[0] ?? 'tshark');
if (!version) console.log('PCAP parity with tshark SKIPPED: tshark is not installed (apt-get install tshark; .ci/run installs it). The golden files of pcap.test.ts still apply.');

const TSHARK_ARGS = ['-q', '-z', 'conv,tcp', '-z', 'conv,udp', '-r'];
const cacheDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/tshark-parity');

/** tshark's table of one capture (it exits non-zero on a cut-short capture but still prints the statistics). */
const runTshark = (file: string) =>
  new Promise<string>((resolve) => {
    execFile('tshark', [...TSHARK_ARGS, file], { encoding: 'utf8', maxBuffer: 64 << 20 }, (_err, stdout) => resolve(stdout));
  });

/** runTshark's answer, from the cache when this tshark already read these very bytes (see the file's comment). */
async function tshark(file: string): Promise<string> {
  const key = crypto.createHash('sha256').update(versionText ?? '').update('\0').update(TSHARK_ARGS.join(' ')).update('\0').update(fs.readFileSync(file)).digest('hex');
  const cached = path.join(cacheDir, `${key}.txt`);
  if (process.env.VIGIL_TSHARK_FRESH !== '1') {
    try {
      return await fs.promises.readFile(cached, 'utf8');
    } catch {
      // Not asked yet: run it.
    }
  }
  const out = await runTshark(file);
  // Only whole tables are kept (both end with a line of '='): a tshark killed half-way is asked again next run.
  if (/\n=+\n?$/.test(out)) {
    await fs.promises.mkdir(cacheDir, { recursive: true });
    // Written whole under another name first, so a run beside this one never reads half of it.
    const partial = `${cached}.${process.pid}`;
    await fs.promises.writeFile(partial, out);
    await fs.promises.rename(partial, cached);
  }
  return out;
}

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
