import { DAY, HOUR, iso, type Rng } from './random';
import type {
  ActionType,
  ActionUserProfileRow,
  DeviceRow,
  DeviceZoneRow,
  IntegrationRow,
  NodeRow,
  NodeTagRow,
  NodeType,
  TopologyLinkRow,
  ZoneRow,
} from './types';

const ZONES: readonly (readonly [name: string, description: string, cidr: string])[] = [
  ['Corporate LAN', 'User workstations at headquarters', '10.10.0.0/16'],
  ['Server VLAN', 'Domain controllers, file and application servers', '10.20.0.0/16'],
  ['DMZ', 'Internet-facing web and mail relays', '172.16.10.0/24'],
  ['Internet', 'Untrusted external network (attacker infrastructure)', '203.0.113.0/24'],
  ['AWS VPC us-east-1', 'Production cloud workloads', '10.100.0.0/16'],
  ['Protected Theater', 'Isolated sandbox for running live malware safely', '192.168.250.0/24'],
  ['Branch Office - Austin', 'Remote branch connected over SD-WAN', '10.30.0.0/16'],
];

interface NodeSpec {
  name: string;
  friendly: string;
  type: NodeType;
  os: string;
  zone: number;
  version: string;
  status?: NodeRow['status'];
  details?: string;
  sandbox?: number;
  tags?: string[];
}

const NODES: readonly NodeSpec[] = [
  { name: 'WIN10-FIN-WS01', friendly: 'Finance workstation 1', type: 'endpoint', os: 'Windows 10 Enterprise 22H2', zone: 1, version: '4.12.1', sandbox: 9, tags: ['Windows Fleet', 'HQ', 'PCI Scope'] },
  { name: 'WIN11-HR-WS02', friendly: 'HR workstation 2', type: 'endpoint', os: 'Windows 11 Enterprise 23H2', zone: 1, version: '4.12.1', sandbox: 9, tags: ['Windows Fleet', 'HQ'] },
  { name: 'WIN10-ENG-WS07', friendly: 'Engineering workstation 7', type: 'endpoint', os: 'Windows 10 Pro 21H2', zone: 1, version: '4.9.3', status: 'offline', details: 'No heartbeat received for 3 days. Check that the Vigil actor service is running.', tags: ['Windows Fleet'] },
  { name: 'SRV-DC01', friendly: 'Domain controller', type: 'endpoint', os: 'Windows Server 2022 Datacenter', zone: 2, version: '4.12.1', tags: ['Crown Jewels'] },
  { name: 'SRV-FILE02', friendly: 'File server', type: 'endpoint', os: 'Windows Server 2019 Standard', zone: 2, version: '4.11.0', tags: ['Crown Jewels'] },
  { name: 'UBU-WEB01', friendly: 'Public web server', type: 'endpoint', os: 'Ubuntu 22.04.4 LTS', zone: 3, version: '4.12.1' },
  { name: 'RHEL-APP03', friendly: 'Payments application server', type: 'endpoint', os: 'Red Hat Enterprise Linux 9.3', zone: 2, version: '4.12.0', tags: ['PCI Scope'] },
  { name: 'MAC-DEV-12', friendly: 'Developer MacBook', type: 'endpoint', os: 'macOS 14.4 Sonoma', zone: 1, version: '4.12.1', tags: ['HQ'] },
  { name: 'PT-SANDBOX-01', friendly: 'Protected theater (Windows)', type: 'protected', os: 'Windows 10 Enterprise 22H2', zone: 6, version: '4.12.1', tags: ['Sandbox'] },
  { name: 'PT-SANDBOX-02', friendly: 'Protected theater (Linux)', type: 'protected', os: 'Ubuntu 22.04.4 LTS', zone: 6, version: '4.12.1', tags: ['Sandbox'] },
  { name: 'NET-ACTOR-CORE01', friendly: 'Core network actor', type: 'network', os: 'Ubuntu 22.04.4 LTS', zone: 2, version: '4.12.1' },
  { name: 'NET-ACTOR-DMZ01', friendly: 'DMZ network actor', type: 'network', os: 'Ubuntu 22.04.4 LTS', zone: 3, version: '4.12.1' },
  { name: 'EXT-ATTACKER-01', friendly: 'External attacker (hosted)', type: 'network', os: 'Debian 12', zone: 4, version: '4.12.1' },
  { name: 'AWS-CLOUD-ACTOR', friendly: 'AWS cloud actor', type: 'cloud', os: 'Amazon Linux 2023', zone: 5, version: '4.12.1' },
  { name: 'EMAIL-ACTOR-01', friendly: 'Inbound email actor', type: 'email', os: 'Debian 12', zone: 4, version: '4.12.1' },
  { name: 'BR-AUS-WS03', friendly: 'Austin branch workstation', type: 'endpoint', os: 'Windows 11 Pro 23H2', zone: 7, version: '4.12.1', status: 'pending', details: 'Registered with a bulk token; waiting for approval.', tags: ['Branch Office'] },
  { name: 'BR-AUS-NET01', friendly: 'Austin branch network actor', type: 'network', os: 'Ubuntu 22.04.4 LTS', zone: 7, version: '4.11.2', tags: ['Branch Office'] },
];

const ALL_NETWORK: ActionType[] = ['dns', 'port_scan', 'captive_dns', 'captive_ioc_url', 'captive_ioc_pcap', 'file_transfer', 'socket', 'website', 'pcap', 'web_request', 'sleep'];

function capabilitiesOf(type: NodeType): ActionType[] {
  switch (type) {
    case 'endpoint':
    case 'protected':
      return [...ALL_NETWORK, 'host_cli'];
    case 'network':
      return ALL_NETWORK;
    case 'cloud':
      return ['cloud', 'dns', 'web_request', 'sleep'];
    case 'email':
      return ['email', 'sleep'];
  }
}

function versionAtLeast(v: string, min: string): boolean {
  const a = v.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

function hostAddress(cidr: string, host: number): string {
  const parts = (cidr.split('/')[0] ?? '0.0.0.0').split('.');
  if (cidr.endsWith('/24')) return `${parts[0]}.${parts[1]}.${parts[2]}.${host}`;
  return `${parts[0]}.${parts[1]}.${Math.floor(host / 200) + 1}.${host % 200 + 20}`;
}

export interface NetworkSet {
  zones: ZoneRow[];
  nodes: NodeRow[];
  node_tags: NodeTagRow[];
  devices: DeviceRow[];
  device_zones: DeviceZoneRow[];
  topology_links: TopologyLinkRow[];
}

export function buildNetwork(rng: Rng, now: number, tagId: (name: string) => number): NetworkSet {
  const zones: ZoneRow[] = ZONES.map(([name, description, cidr], i) => ({ id: i + 1, name, description, cidr }));
  const node_tags: NodeTagRow[] = [];
  const nodes: NodeRow[] = NODES.map((n, i) => {
    const id = i + 1;
    const os_base: NodeRow['os_base'] = n.os.startsWith('Windows') ? 'windows' : n.os.startsWith('macOS') ? 'macos' : 'linux';
    const zone = zones[n.zone - 1];
    if (!zone) throw new Error(`unknown zone ${n.zone}`);
    const status = n.status ?? 'online';
    for (const t of n.tags ?? []) node_tags.push({ node_id: id, tag_id: tagId(t) });
    const created = now - rng.int(60, 400) * DAY;
    return {
      id,
      name: n.name,
      friendly_name: n.friendly,
      node_type: n.type,
      os_base,
      os: n.os,
      node_version: n.version,
      msi_service_version: os_base === 'windows' && status === 'online' ? rng.pick(['2.3.1', '2.4.0', null]) : null,
      deps_installed: os_base === 'windows' && status === 'online' && rng.chance(0.5),
      status,
      status_details: n.details ?? null,
      security_zone_id: zone.id,
      mgmt_address: hostAddress(zone.cidr, 10 + id),
      sim_address: hostAddress(zone.cidr, 100 + id),
      monitor_address: n.type === 'network' ? hostAddress(zone.cidr, 150 + id) : '',
      sandbox_node_id: n.sandbox ?? null,
      username: os_base === 'windows' ? 'CORP\\svc_vigil' : 'vigil',
      last_heartbeat_at: status === 'online' ? iso(now - rng.int(5, 90) * 1000) : status === 'offline' ? iso(now - 3 * DAY - rng.int(1, 20) * HOUR) : null,
      capabilities: {
        action_types: capabilitiesOf(n.type),
        run_as_user: os_base === 'windows' && versionAtLeast(n.version, '4.10.0') && (n.type === 'endpoint' || n.type === 'protected'),
      },
      created_at: iso(created),
      updated_at: iso(created + rng.int(1, 50) * DAY),
    };
  });

  const DEVICES: readonly (readonly [string, string, DeviceRow['device_type'], boolean, readonly (readonly [string, number])[]])[] = [
    ['PA-5220 Perimeter Firewall', 'Palo Alto Networks NGFW with Threat Prevention and URL Filtering', 'firewall', true, [['ethernet1/1', 4], ['ethernet1/2', 3], ['ethernet1/3', 2]]],
    ['FortiGate 600E Segmentation', 'Internal segmentation firewall between users, servers and branches', 'firewall', true, [['port1', 2], ['port2', 1], ['port3', 7]]],
    ['Snort IDS Sensor', 'Passive IDS on SPAN ports, Emerging Threats Open ruleset', 'ids', false, [['eth1', 2], ['eth2', 1]]],
    ['Zscaler Internet Access', 'Cloud web proxy with SSL inspection for user traffic', 'proxy', true, [['tunnel0', 1], ['wan0', 4]]],
    ['F5 BIG-IP Advanced WAF', 'Web application firewall in front of the public web tier', 'waf', true, [['1.1', 4], ['1.2', 3]]],
    ['Proofpoint Email Protection', 'Secure email gateway for inbound and outbound mail', 'email_gateway', true, [['ext', 4], ['int', 2]]],
    ['AWS Transit Gateway', 'Routes between the data centre and the production VPC', 'router', false, [['attach-dc', 2], ['attach-vpc', 5]]],
    ['Theater Isolation Switch', 'One-way bridge into the protected theater', 'router', false, [['uplink', 2], ['theater', 6]]],
  ];
  const devices: DeviceRow[] = [];
  const device_zones: DeviceZoneRow[] = [];
  const topology_links: TopologyLinkRow[] = [];
  DEVICES.forEach(([name, description, device_type, prevention_enabled, ifaces], i) => {
    const id = i + 1;
    devices.push({
      id,
      name,
      description,
      device_type,
      prevention_enabled,
      interfaces: ifaces.map(([ifName, zoneId]) => {
        const zone = zones[zoneId - 1];
        return { name: ifName, ip_address: zone ? hostAddress(zone.cidr, id === 1 ? 1 : 1 + id) : '', zone_id: zoneId };
      }),
    });
    for (const [, zoneId] of ifaces) {
      if (!device_zones.some((d) => d.device_id === id && d.zone_id === zoneId)) device_zones.push({ device_id: id, zone_id: zoneId });
      const a = topology_links.length + 1;
      topology_links.push({ id: a, id1: `device_${id}`, id2: `zone_${zoneId}`, compliment_id: a + 1 });
      topology_links.push({ id: a + 1, id1: `zone_${zoneId}`, id2: `device_${id}`, compliment_id: a });
    }
  });
  return { zones, nodes, node_tags, devices, device_zones, topology_links };
}

export const INTEGRATIONS: readonly IntegrationRow[] = [
  { id: 1, name: 'Splunk Enterprise Security', brand_name: 'Splunk', type: 'siem', remote: false, host: 'splunk.corp.example.com', logo_path: '/logos/splunk.svg', enabled: true },
  { id: 2, name: 'CrowdStrike Falcon', brand_name: 'CrowdStrike', type: 'edr', remote: true, host: 'api.crowdstrike.com', logo_path: '/logos/crowdstrike.svg', enabled: true },
  { id: 3, name: 'Microsoft Sentinel', brand_name: 'Microsoft', type: 'siem', remote: true, host: 'corp-soc.ops.azure.com', logo_path: '/logos/sentinel.svg', enabled: true },
  { id: 4, name: 'Palo Alto Networks NGFW', brand_name: 'Palo Alto Networks', type: 'firewall', remote: false, host: '10.20.0.1', logo_path: '/logos/paloalto.svg', enabled: true },
  { id: 5, name: 'Snort 3', brand_name: 'Cisco Talos', type: 'ids', remote: false, host: '10.20.0.250', logo_path: '/logos/snort.svg', enabled: true },
  { id: 6, name: 'Proofpoint TAP', brand_name: 'Proofpoint', type: 'email', remote: true, host: 'tap-api-v2.proofpoint.com', logo_path: '/logos/proofpoint.svg', enabled: true },
  { id: 7, name: 'Zscaler ZIA', brand_name: 'Zscaler', type: 'proxy', remote: true, host: 'zsapi.zscaler.net', logo_path: '/logos/zscaler.svg', enabled: true },
  { id: 8, name: 'Recorded Future', brand_name: 'Recorded Future', type: 'threat_intel', remote: true, host: 'api.recordedfuture.com', logo_path: '/logos/recordedfuture.svg', enabled: false },
];

export const ACTION_USER_PROFILES: readonly ActionUserProfileRow[] = [
  { id: 1, friendly_name: 'Standard Domain User', username: 'CORP\\jsmith' },
  { id: 2, friendly_name: 'Local Administrator', username: '.\\Administrator' },
  { id: 3, friendly_name: 'Helpdesk Technician', username: 'CORP\\helpdesk.t1' },
  { id: 4, friendly_name: 'Finance Analyst', username: 'CORP\\fin.analyst' },
  { id: 5, friendly_name: 'Backup Service Account', username: 'CORP\\svc_backup' },
];
