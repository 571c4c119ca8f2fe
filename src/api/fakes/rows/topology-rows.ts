/** Rows of zones, actors (nodes), devices, topology links and integrations. */
import type { ActionType } from '@/api/contracts/vocabulary';

export interface ZoneRow {
  id: number;
  name: string;
  description: string;
  cidr: string;
}
export type NodeType = 'endpoint' | 'protected' | 'network' | 'cloud' | 'email';
export interface NodeRow {
  id: number;
  name: string;
  friendly_name: string;
  node_type: NodeType;
  os_base: 'windows' | 'linux' | 'macos';
  os: string;
  node_version: string;
  msi_service_version: string | null;
  deps_installed: boolean;
  status: 'online' | 'offline' | 'pending';
  status_details: string | null;
  security_zone_id: number;
  mgmt_address: string;
  sim_address: string;
  monitor_address: string;
  sandbox_node_id: number | null;
  username: string;
  last_heartbeat_at: string | null;
  capabilities: { action_types: ActionType[]; run_as_user: boolean };
  created_at: string;
  updated_at: string;
}
export interface NodeTagRow {
  node_id: number;
  tag_id: number;
}
export interface DeviceInterface {
  name: string;
  ip_address: string;
  zone_id: number;
}
export interface DeviceRow {
  id: number;
  name: string;
  description: string;
  device_type: 'firewall' | 'ips' | 'ids' | 'proxy' | 'waf' | 'email_gateway' | 'router';
  prevention_enabled: boolean;
  interfaces: DeviceInterface[];
}
export interface DeviceZoneRow {
  device_id: number;
  zone_id: number;
}
export interface TopologyLinkRow {
  id: number;
  id1: string;
  id2: string;
  compliment_id: number | null;
}
export interface IntegrationRow {
  id: number;
  name: string;
  brand_name: string;
  type: 'siem' | 'edr' | 'firewall' | 'ids' | 'email' | 'proxy' | 'threat_intel';
  remote: boolean;
  host: string;
  logo_path: string;
  enabled: boolean;
}
