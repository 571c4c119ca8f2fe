/**
 * The one vocabulary of the workbench: action types and their labels, dimension types, file
 * restrictions, and the job and job-action statuses. Declared here once and imported by the
 * director, the workbench, the CLI (through the commands) and the fake data generator
 * (src/api/fakes imports from contracts, never the reverse).
 *
 * Labels follow the specs: actions.md names the types ("a malicious DNS Action", "Captive DNS",
 * "Malicious File Transfer"), jobs-simulations-network-map.md speaks of "a DNS, host CLI or cloud
 * validation step".
 */

/** actions.md section 1: the fourteen action types, in the spec's order. */
export const ACTION_TYPES = [
  'dns',
  'port_scan',
  'captive_dns',
  'captive_ioc_url',
  'captive_ioc_pcap',
  'file_transfer',
  'email',
  'socket',
  'host_cli',
  'website',
  'pcap',
  'web_request',
  'sleep',
  'cloud',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_TYPE_LABELS: Record<ActionType, string> = {
  dns: 'DNS',
  port_scan: 'Port Scan',
  captive_dns: 'Captive DNS',
  captive_ioc_url: 'Captive IOC URL',
  captive_ioc_pcap: 'Captive IOC PCAP',
  file_transfer: 'Malicious File Transfer',
  email: 'Email',
  socket: 'Socket',
  host_cli: 'Host CLI',
  website: 'Website',
  pcap: 'PCAP',
  web_request: 'Web Request',
  sleep: 'Sleep',
  cloud: 'Cloud',
};

/** The six dimension trees of an Action, in the form's order. */
export const DIMENSION_TYPES = ['attack_vector', 'attacker_location', 'behavior_type', 'covert', 'os_platform', 'stage_of_attack'] as const;
export type DimensionType = (typeof DIMENSION_TYPES)[number];

export const DIMENSION_LABELS: Record<DimensionType, string> = {
  attack_vector: 'Attack Vector',
  attacker_location: 'Attacker Location',
  behavior_type: 'Behavior Type',
  covert: 'Covert',
  os_platform: 'OS/Platform',
  stage_of_attack: 'Stage of Attack',
};

/** A library file's restriction (actions.md section 4, "Action approval"). */
export const FILE_RESTRICTIONS = ['none', 'pending_approval', 'restricted_malicious'] as const;
export type FileRestriction = (typeof FILE_RESTRICTIONS)[number];

export const FILE_RESTRICTION_LABELS: Record<FileRestriction, string> = {
  none: 'None',
  pending_approval: 'Pending Approval',
  restricted_malicious: 'Restricted Malicious',
};

/** Job statuses (jobs-simulations-network-map.md section 4). */
export const JOB_STATUSES = ['sleeping', 'pending', 'waiting', 'preparing', 'running', 'reverting', 'errored', 'cancelled', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job action's run statuses. */
export const JOB_ACTION_STATUSES = ['pending', 'running', 'waiting', 'reverting', 'errored', 'cancelled', 'not run', 'incompatible', 'ran', 'completed'] as const;
export type JobActionStatus = (typeof JOB_ACTION_STATUSES)[number];
