/**
 * The lab's policy file (lab/policy.nft, or the operator's own): the NFLOG group its rules log to,
 * the outcome it promises for each Action ("# expect <VID> blocked=yes detected=no alerted=no"),
 * and the files the lab writes from it (the nftables wrapper with the lab's networks, ulogd2's
 * configuration). Pure: no system calls.
 */
import type { LabLayout } from './layout';

export interface Expectation {
  vid: string;
  /** The zone of the destination actor (`to=<zone>`; the server zone when not given). */
  to: string;
  blocked: boolean;
  detected: boolean;
  alerted: boolean;
  note: string;
}

const EXPECT = /^#\s*expect\s+(\S+)\s+(?:to=(\w+)\s+)?blocked=(yes|no)\s+detected=(yes|no)\s+alerted=(yes|no)\s*(.*)$/;

/** The "# expect <VID> [to=<zone>] blocked=.. detected=.. alerted=.. note" lines of a policy file. */
export function parseExpectations(policy: string): Expectation[] {
  return policy.split('\n').flatMap((line) => {
    const m = EXPECT.exec(line.trim());
    return m ? [{ vid: m[1]!, to: m[2] ?? 'server', blocked: m[3] === 'yes', detected: m[4] === 'yes', alerted: m[5] === 'yes', note: m[6]!.trim() }] : [];
  });
}

/** The NFLOG group the policy's rules log to; throws when they use more than one. Null when nothing is logged. */
export function logGroupOf(policy: string): number | null {
  const groups = new Set<number>();
  for (const line of policy.split('\n')) {
    if (line.trim().startsWith('#')) continue;
    for (const m of line.matchAll(/\blog\b[^#]*?\bgroup\s+(\d+)/g)) groups.add(Number(m[1]));
  }
  if (groups.size > 1) throw new Error(`The policy logs to NFLOG groups ${[...groups].join(', ')}; the lab's sensor reads one group, so use one.`);
  const [g] = groups;
  return g ?? null;
}

/** The file loaded with `nft -f`: the lab's networks as variables, a clean slate, then the policy. */
export function firewallScript(layout: LabLayout, policyPath: string): string {
  const zone = (n: string) => layout.zones.find((z) => z.name === n)!;
  return [
    `# Written by npm run lab for ${layout.prefix}; loaded in namespace ${layout.fwNs} only.`,
    `define user_net = ${zone('user').cidr}`,
    `define server_net = ${zone('server').cidr}`,
    `define dmz_net = ${zone('dmz').cidr}`,
    `define resolver = ${zone('dmz').address}`,
    'flush ruleset',
    `include "${policyPath.replace(/"/g, '')}"`,
    '',
  ].join('\n');
}

export const ULOGD_PLUGIN_DIR = '/usr/lib/x86_64-linux-gnu/ulogd';

/** ulogd2's configuration: NFLOG group -> BASE, IFINDEX, IP2STR -> JSON lines in the events file. */
export function ulogdConfig(layout: LabLayout, group: number, pluginDir = ULOGD_PLUGIN_DIR): string {
  const plugins = ['inppkt_NFLOG', 'raw2packet_BASE', 'filter_IFINDEX', 'filter_IP2STR', 'output_JSON'];
  return [
    `# Written by npm run lab for ${layout.prefix}; ulogd runs in namespace ${layout.fwNs}.`,
    '[global]',
    `logfile="${layout.stateDir}/ulogd.log"`,
    'loglevel=3',
    ...plugins.map((p) => `plugin="${pluginDir}/ulogd_${p}.so"`),
    'stack=log1:NFLOG,base1:BASE,ifi1:IFINDEX,ip2str1:IP2STR,json1:JSON',
    '[log1]',
    `group=${group}`,
    '[json1]',
    'sync=1',
    `file="${layout.eventsPath}"`,
    '',
  ].join('\n');
}
