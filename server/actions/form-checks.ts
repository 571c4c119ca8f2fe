/**
 * The Action form checks that need the database and are not about files or tags: the VID override,
 * the dimension values, the DNS server and run-as profile, the Sleep duration and the PCAP rule.
 */
import type { Db } from '../db/index';
import { MSG, VID_PATTERN, sleepDurationError, typeKey, type ActionFormPayload } from '../../src/api/contracts/action-form';
import { DIMENSION_TYPES, type ActionType } from '../../src/api/contracts/vocabulary';
import { addError, type Errors } from './validation-error';

/** Sleep: the duration is the Action's timeout. */
export function checkSleep(errors: Errors, payload: ActionFormPayload): void {
  const e = sleepDurationError(payload);
  if (e) addError(errors, 'sim_action.timeout_ms', e);
}

/** VID override: brt_auth only, the VID shape, unique. Returns the override (null when none). */
export async function checkVidOverride(db: Db, errors: Errors, payload: ActionFormPayload, perms: ReadonlySet<string>, existingId: number | undefined): Promise<string | null> {
  const vidOverride = payload.system_override?.vid?.trim() || null;
  if (!vidOverride) return null;
  if (!perms.has('brt_auth')) addError(errors, 'vid', 'can only be set by a user with brt_auth');
  else if (!VID_PATTERN.test(vidOverride)) addError(errors, 'vid', 'must look like A000-1234');
  else {
    const taken = await db.query<{ id: number }>('select id from actions where vid = $1 and id <> $2', [vidOverride, existingId ?? 0]);
    if (taken.length) addError(errors, 'vid', 'has already been taken');
  }
  return vidOverride;
}

/** Dimensions: one non-root node of the right tree per entry. */
export async function checkDimensions(db: Db, errors: Errors, trees: ActionFormPayload['trees']): Promise<void> {
  const treeIds = trees.map((t) => t.id).filter((x): x is number => typeof x === 'number');
  const nodes = treeIds.length
    ? await db.query<{ id: number; type: string; parent_id: number | null }>('select id, type, parent_id from dimensions where id = any($1::int[])', [treeIds])
    : [];
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  trees.forEach((t, i) => {
    if (t.id == null) return;
    const n = nodeById.get(t.id);
    const dim = DIMENSION_TYPES[i]!;
    if (!n) addError(errors, `trees.${i}.id`, 'is not a dimension value');
    else if (n.type !== dim) addError(errors, `trees.${i}.id`, `is not a value of ${dim}`);
    else if (n.parent_id === null) addError(errors, `trees.${i}.id`, MSG.mustBeFilled);
  });
}

/** The DNS server of a DNS Action and the run-as profile of a host_cli Action exist. */
export async function checkReferences(db: Db, errors: Errors, type: ActionType, payload: ActionFormPayload): Promise<void> {
  if (type === 'dns' && payload.dns_action?.dns_server_id != null) {
    const rows = await db.query('select 1 from dns_servers where id = $1', [payload.dns_action.dns_server_id]);
    if (!rows.length) addError(errors, 'dns_action.dns_server_id', 'is not a DNS server');
  }
  if (type === 'host_cli' && payload.host_cli_action?.action_user_profile_id != null) {
    const rows = await db.query('select 1 from action_user_profiles where id = $1', [payload.host_cli_action.action_user_profile_id]);
    if (!rows.length) addError(errors, 'host_cli_action.action_user_profile_id', 'is not a run-as user profile');
  }
}

/** PCAP: a new PCAP Action comes from the upload flow. */
export function checkPcapOrigin(errors: Errors, type: ActionType, existingId: number | undefined): void {
  if ((type === 'pcap' || type === 'captive_ioc_pcap') && existingId === undefined) {
    addError(errors, `${typeKey(type)}.upload`, 'PCAP Actions are created from an uploaded PCAP: use the PCAP upload (POST /manage_sims/upload/create_pcap_action).');
  }
}
