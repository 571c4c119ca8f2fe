/**
 * The per-group run-as selection on the director (MON-103..106, MON-064..067 through the shared
 * runAsState): the actors a group selects (its source actor, or every actor of its source zone), the
 * refusals of a monitor body whose run-as or Interactive Session contradicts the rules, and MON-044's
 * action_user_profile and interactive session objects of a saved group.
 */
import type { Db } from '../db/index';
import type { MonitorGroupBody } from '../../src/api/contracts/monitors';
import {
  RUN_AS_UNSUPPORTED_MESSAGE,
  SESSION_DISABLED_MESSAGE,
  SESSION_FORCED_MESSAGE,
  SESSION_HOST_CLI_MESSAGE,
  runAsState,
  type ActionUserProfileField,
  type InteractiveSessionField,
  type RunAsActor,
  type RunAsState,
} from '../../src/api/contracts/run-as-selection';

export type ZonedActor = RunAsActor & { security_zone_id: number | null };

const ACTOR_COLUMNS = `n.id, n.os_base, n.node_version, n.node_type, n.sandbox_node_id, n.security_zone_id,
  array(select t.name from node_tags nt join tags t on t.id = nt.tag_id where nt.node_id = n.id order by t.name) as user_tags`;

/** The actors with these ids, or in these zones. */
export function runAsActors(db: Db, nodeIds: number[], zoneIds: number[] = []): Promise<ZonedActor[]> {
  return db.query<ZonedActor>(`select ${ACTOR_COLUMNS} from nodes n where n.id = any($1::int[]) or n.security_zone_id = any($2::int[])`, [nodeIds, zoneIds]);
}

type GroupConfig = Pick<MonitorGroupBody, 'run_between' | 'attack_node' | 'attack_zone' | 'action_user_profile' | 'interactive_desktop_session' | 'require_interactive'>;

/** The actors a group selects: its source actor (actor mode) or the actors of its source zone (zone mode). */
export function selectedActors(g: GroupConfig, actors: ZonedActor[]): ZonedActor[] {
  return g.run_between === 'zone'
    ? g.attack_zone === null ? [] : actors.filter((a) => a.security_zone_id === g.attack_zone)
    : actors.filter((a) => a.id === g.attack_node);
}

/** The rules' state of a group as saved (its tick is the user's tick of its mode). */
export function groupRunAsState(g: GroupConfig, types: string[], protectedAction: boolean, actors: ZonedActor[]): RunAsState {
  const mode = g.run_between === 'zone' ? 'zone' : 'actor';
  return runAsState({
    actionTypes: types,
    protectedAction,
    mode,
    selected: selectedActors(g, actors),
    profile: g.action_user_profile,
    required: g.require_interactive,
    default: false,
    userTick: { [mode]: g.interactive_desktop_session },
  });
}

/** MON-104..106, MON-065: what a group's run-as and Interactive Session may not be, by field. */
export function runAsProblems(g: GroupConfig, state: RunAsState): Partial<Record<'action_user_profile' | 'interactive_desktop_session', string>> {
  const out: Partial<Record<'action_user_profile' | 'interactive_desktop_session', string>> = {};
  if (g.action_user_profile !== null && !state.supported) out.action_user_profile = RUN_AS_UNSUPPORTED_MESSAGE;
  if (g.interactive_desktop_session && state.sessionHidden) out.interactive_desktop_session = SESSION_HOST_CLI_MESSAGE;
  else if (g.interactive_desktop_session && state.sessionUnavailable) out.interactive_desktop_session = SESSION_DISABLED_MESSAGE;
  else if (state.sessionForced && !g.interactive_desktop_session) out.interactive_desktop_session = SESSION_FORCED_MESSAGE;
  return out;
}

/** MON-044: the group's action_user_profile and interactive session objects. */
export function runAsFields(g: GroupConfig, profiles: ActionUserProfileField['profiles']): { action_user_profile_field: ActionUserProfileField; interactive_session_field: InteractiveSessionField } {
  return {
    action_user_profile_field: { field_name: 'action_user_profile', profiles, default: null },
    interactive_session_field: { field_name: 'interactive_desktop_session', required: g.require_interactive, default: false, value: g.interactive_desktop_session },
  };
}
