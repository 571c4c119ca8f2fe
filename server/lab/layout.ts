/**
 * The lab's shape, from its name prefix and its /16 (pure; no system calls): a firewall namespace
 * `<prefix>-fw` and one namespace per zone `<prefix>-<zone>`, joined by veth pairs created directly
 * inside the namespaces (`z-<zone>` on the firewall side, `eth0` in the zone), so no interface ever
 * exists in the host's namespace. Zone i gets <base>.<i+1>.0/24: the firewall is .1, the actor .10.
 * Zones route only the lab's /16 through the firewall, which has no other interface: no packet can
 * leave the lab's namespaces.
 */
import path from 'node:path';

export const ZONES = ['user', 'server', 'dmz'] as const;
export type ZoneName = (typeof ZONES)[number];
export const DEFAULT_PREFIX = 'vigil-lab';
export const DEFAULT_SUBNET = '10.77';
export const DEFAULT_RUN_DIR = '/run/vigil-lab';

export interface LabZone {
  name: ZoneName;
  ns: string;
  cidr: string;
  gateway: string;
  address: string;
  /** The firewall's interface towards this zone. */
  fwIf: string;
}

export interface LabLayout {
  prefix: string;
  /** The lab's /16, e.g. 10.77.0.0/16. */
  net: string;
  fwNs: string;
  zones: LabZone[];
  stateDir: string;
  stateFile: string;
  eventsPath: string;
  socketPath: string;
  nftPath: string;
  ulogdConf: string;
}

const SUBNET = /^10\.(25[0-5]|2[0-4]\d|1?\d?\d)$/;

export function validSubnet(base: string): boolean {
  return SUBNET.test(base);
}

export function labLayout(prefix: string, subnet = DEFAULT_SUBNET, runDir = DEFAULT_RUN_DIR): LabLayout {
  if (!validSubnet(subnet)) throw new Error(`The lab subnet must be a private 10.x prefix such as 10.77, got "${subnet}"`);
  const stateDir = path.join(runDir, prefix);
  return {
    prefix,
    net: `${subnet}.0.0/16`,
    fwNs: `${prefix}-fw`,
    zones: ZONES.map((name, i) => ({
      name,
      ns: `${prefix}-${name}`,
      cidr: `${subnet}.${i + 1}.0/24`,
      gateway: `${subnet}.${i + 1}.1`,
      address: `${subnet}.${i + 1}.10`,
      fwIf: `z-${name}`,
    })),
    stateDir,
    stateFile: path.join(stateDir, 'lab.json'),
    eventsPath: path.join(stateDir, 'ulogd.json'),
    socketPath: path.join(stateDir, 'director.sock'),
    nftPath: path.join(stateDir, 'firewall.nft'),
    ulogdConf: path.join(stateDir, 'ulogd.conf'),
  };
}

export const namespacesOf = (l: LabLayout): string[] => [l.fwNs, ...l.zones.map((z) => z.ns)];
