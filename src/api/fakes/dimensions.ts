import { DIMENSION_LABELS } from '@/api/contracts/vocabulary';
import { slug } from './random';
import type { ActionType, DimensionDefaultRow, DimensionRow, DimensionType } from './types';

type Tree = readonly (string | readonly [string, Tree])[];


/** The six dimension trees below their root (the root is named after the type label). */
const TREES: Record<DimensionType, Tree> = {
  attack_vector: [
    ['General Malware', ['Ransomware', 'Trojan', 'Worm', 'Backdoor/RAT', 'Infostealer']],
    ['Phishing', ['Spearphishing Attachment', 'Spearphishing Link', 'Business Email Compromise']],
    ['Web Application Attack', ['SQL Injection', 'Cross-Site Scripting', 'Command Injection', 'Path Traversal']],
    ['Exploit', ['Remote Code Execution', 'Local Privilege Escalation']],
    'Credential Theft',
    'Insider Threat',
    'Data Leakage',
    'Cloud Misconfiguration',
    'Network Reconnaissance',
  ],
  attacker_location: [
    ['Internal', ['Same Zone', 'Different Zone', 'DMZ']],
    ['External', ['Internet', 'Partner Network', 'Remote Access VPN']],
    ['Cloud', ['Public Cloud Tenant', 'SaaS Application']],
  ],
  behavior_type: [
    ['Malicious', ['Command and Control', 'Malware Delivery', 'Exfiltration', 'Lateral Movement', 'Reconnaissance', 'Credential Access', 'Destruction']],
    ['Suspicious', ['Living off the Land', 'Anomalous Protocol Use', 'Policy Violation']],
    'Benign',
  ],
  covert: [['Covert Behavior', ['Encrypted Channel', 'Obfuscated Payload', 'Protocol Tunneling', 'Domain Fronting']], 'Overt Behavior'],
  os_platform: [
    ['Windows', ['Windows 10', 'Windows 11', 'Windows Server 2019', 'Windows Server 2022']],
    ['Linux', ['Ubuntu 22.04', 'Red Hat Enterprise Linux 9', 'Debian 12']],
    ['macOS', ['macOS 13 Ventura', 'macOS 14 Sonoma']],
    ['Cloud Platform', ['Amazon Web Services', 'Microsoft Azure', 'Google Cloud']],
    'Network Device',
    'Platform Agnostic',
  ],
  stage_of_attack: [
    'Reconnaissance',
    'Weaponization',
    'Delivery',
    'Exploitation',
    'Execution',
    'Installation',
    'Command and Control',
    'Lateral Movement',
    ['Action on Target', ['Data Exfiltration', 'Data Encryption', 'Data Destruction']],
  ],
};

export interface DimensionSet {
  dimensions: DimensionRow[];
  /** Node id by type and node name; throws on an unknown name. */
  id(type: DimensionType, name: string): number;
}

export function buildDimensions(): DimensionSet {
  const dimensions: DimensionRow[] = [];
  const byKey = new Map<string, number>();
  const add = (type: DimensionType, parent_id: number | null, name: string, param_name: string, position: number) => {
    const row: DimensionRow = { id: dimensions.length + 1, type, parent_id, name, param_name, position };
    dimensions.push(row);
    byKey.set(`${type}/${name}`, row.id);
    return row.id;
  };
  const walk = (type: DimensionType, parent: number, tree: Tree) => {
    tree.forEach((entry, position) => {
      if (typeof entry === 'string') add(type, parent, entry, slug(entry), position);
      else walk(type, add(type, parent, entry[0], slug(entry[0]), position), entry[1]);
    });
  };
  for (const type of Object.keys(TREES) as DimensionType[]) {
    walk(type, add(type, null, DIMENSION_LABELS[type], type, 0), TREES[type]);
  }
  return {
    dimensions,
    id(type, name) {
      const id = byKey.get(`${type}/${name}`);
      if (id === undefined) throw new Error(`unknown dimension ${type}/${name}`);
      return id;
    },
  };
}

/** Dimension values the Action form applies when creating an Action of a type. */
export const TYPE_DIMENSION_DEFAULTS: Partial<Record<ActionType, Partial<Record<DimensionType, string>>>> = {
  dns: { behavior_type: 'Command and Control', stage_of_attack: 'Command and Control', os_platform: 'Platform Agnostic' },
  captive_dns: { behavior_type: 'Command and Control', stage_of_attack: 'Command and Control' },
  captive_ioc_url: { behavior_type: 'Malware Delivery', stage_of_attack: 'Delivery' },
  captive_ioc_pcap: { stage_of_attack: 'Command and Control', attacker_location: 'Internet' },
  pcap: { attacker_location: 'Internet', os_platform: 'Platform Agnostic' },
  port_scan: { attack_vector: 'Network Reconnaissance', behavior_type: 'Reconnaissance', stage_of_attack: 'Reconnaissance' },
  file_transfer: { behavior_type: 'Malware Delivery', stage_of_attack: 'Delivery' },
  email: { attack_vector: 'Phishing', behavior_type: 'Malware Delivery', stage_of_attack: 'Delivery' },
  host_cli: { os_platform: 'Windows', stage_of_attack: 'Execution', attacker_location: 'Same Zone' },
  web_request: { attack_vector: 'Web Application Attack', stage_of_attack: 'Exploitation' },
  website: { stage_of_attack: 'Delivery' },
  socket: { covert: 'Overt Behavior' },
  cloud: { os_platform: 'Cloud Platform', attacker_location: 'Public Cloud Tenant' },
};

export function buildDimensionDefaults(dims: DimensionSet): DimensionDefaultRow[] {
  const rows: DimensionDefaultRow[] = [];
  for (const [action_type, values] of Object.entries(TYPE_DIMENSION_DEFAULTS) as [ActionType, Partial<Record<DimensionType, string>>][]) {
    for (const [dimension_type, name] of Object.entries(values) as [DimensionType, string][]) {
      rows.push({ action_type, dimension_type, dimension_id: dims.id(dimension_type, name) });
    }
  }
  return rows;
}
