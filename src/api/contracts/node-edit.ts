/**
 * Actor edit (/topology/nodes/{id}/edit, JOB-005): what an operator may change on an actor (name,
 * zone, user tags, type, enabled or retired) and the facts the actor reports (OS, version, addresses,
 * last contact), which are shown and never edited. MON-042 names the actor's fields.
 */
import * as yup from 'yup';

export const NODE_TYPES = ['endpoint', 'protected', 'network', 'cloud', 'email'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export interface NodeDetail {
  id: number;
  name: string;
  friendly_name: string;
  node_type: NodeType;
  os_base: string;
  os: string;
  node_version: string;
  status: 'online' | 'offline' | 'pending';
  status_details: string | null;
  security_zone_id: number | null;
  zone_name: string | null;
  mgmt_address: string;
  sim_address: string;
  monitor_address: string;
  last_heartbeat_at: string | null;
  retired_at: string | null;
  /** Whether the actor ever connected (it holds a credential). */
  registered: boolean;
  /** The version of the actor's service, as it reported at registration (JOB-046); null when unknown. */
  msi_service_version: string | null;
  deps_installed: boolean;
  /** MON-042: the actor's sandbox actor (run-as interactive sessions of host_cli need one), and its name. */
  sandbox_node_id: number | null;
  sandbox_name: string | null;
  /** MON-042: the account the actor runs as on its host, as it reported at registration ('' when unknown). */
  username: string;
  user_tags: string[];
  /** The actor's tags marked not editable (MON-076). */
  locked_tags: string[];
  capabilities: Record<string, unknown>;
}

export interface NodeEditOptions {
  zones: { id: number; name: string }[];
  /** Existing user tags, for the tag pick list. */
  user_tags: string[];
  /** The actors that may be another actor's sandbox (not retired). */
  actors: { id: number; name: string }[];
}

const tagName = yup.string().trim().required('A tag must not be empty').max(100, 'A tag is at most 100 characters');

export const nodeUpdateSchema = yup
  .object({
    name: yup.string().trim().min(1, 'Name is required').max(100, 'Name is at most 100 characters').optional().label('Name'),
    friendly_name: yup.string().trim().max(100, 'Friendly name is at most 100 characters').optional().label('Friendly name'),
    security_zone_id: yup.number().typeError('Zone must be a zone id').integer().positive().max(2_147_483_647).nullable().optional().label('Zone'),
    node_type: yup.string<NodeType>().oneOf([...NODE_TYPES], `Type must be one of ${NODE_TYPES.join(', ')}`).optional().label('Type'),
    user_tags: yup.array(tagName).max(200, 'At most 200 tags').optional().label('Tags'),
    retired: yup.boolean().optional().label('Retired'),
    sandbox_node_id: yup.number().typeError('Sandbox must be an actor id').integer().positive().max(2_147_483_647).nullable().optional().label('Sandbox'),
  })
  .noUnknown('Unknown field: ${unknown}')
  .test('something', 'Nothing to change: give name, friendly_name, security_zone_id, node_type, user_tags, sandbox_node_id or retired.', (v) => Object.values(v ?? {}).some((x) => x !== undefined));
export type NodeUpdate = yup.InferType<typeof nodeUpdateSchema>;
