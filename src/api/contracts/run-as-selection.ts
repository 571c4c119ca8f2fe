/**
 * The per-group run-as selection (monitors-actors-reporting.md section 4 and 5 "Run-as-user",
 * MON-044, MON-064..067, MON-103..106): which actors a run-as user can run on, whether the run-as
 * select applies, and the state of the Interactive Session checkbox. One pure computation shared by
 * the monitor editor (what it shows), the director's monitor validation (what it refuses) and the
 * engine (what a monitor's job really sends to the actor).
 */

/** MON-103, section 9: the minimum actor version for run-as-user. */
export const RUN_AS_MIN_VERSION = '4.10.0';
/** MON-104: run-as does not apply to these types. */
export const NO_RUN_AS_TYPES: readonly string[] = ['cloud', 'email'];
/** MON-106: for these types the session is disabled when no Windows actor is selected. */
export const SESSION_NEEDS_WINDOWS_TYPES: readonly string[] = ['captive_ioc_pcap', 'captive_ioc_url', 'dns', 'file', 'file_transfer', 'hex', 'pcap', 'port_scan', 'socket', 'website'];

/** Refusals of the director (the spec gives no texts for these). */
export const RUN_AS_UNSUPPORTED_MESSAGE =
  'Run-as user does not apply to this group: cloud and email actions never run as a user, and other types (host_cli aside) need a selected Windows actor of version 4.10.0 or later, endpoint or protected.';
export const SESSION_HOST_CLI_MESSAGE = 'Interactive Session does not apply to host_cli actions.';
export const SESSION_DISABLED_MESSAGE = 'Interactive Session is not available here: it needs a selected Windows actor, and with a run-as user on host_cli a sandbox.';
export const SESSION_FORCED_MESSAGE = 'Interactive Session is required: the action is protected and every selected actor is a valid sandboxed actor.';

/** An actor as the rules see it (section 3 "Actor (node)"). */
export interface RunAsActor {
  id: number;
  os_base: string;
  node_version: string;
  node_type: string;
  sandbox_node_id: number | null;
  user_tags: string[];
}

/** Actor mode selects actors one by one; tag mode selects the actors carrying a tag; a monitor's zone mode the actors of a zone. */
export type RunAsMode = 'actor' | 'tag' | 'zone';

/** True when version a.b.c is at least min (missing parts count as 0; non-numeric parts as 0). */
export function versionAtLeast(version: string, min: string): boolean {
  const parse = (v: string) => v.split(/[.-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
  const a = parse(version);
  const b = parse(min);
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** MON-103: Windows, version >= 4.10.0, endpoint or protected; in tag mode also carrying one of the selected tags. */
export function validRunAsActor(actor: RunAsActor, mode: RunAsMode = 'actor', selectedTags: readonly string[] = []): boolean {
  const base = actor.os_base === 'windows' && versionAtLeast(actor.node_version, RUN_AS_MIN_VERSION) && (actor.node_type === 'endpoint' || actor.node_type === 'protected');
  if (!base) return false;
  return mode !== 'tag' || actor.user_tags.some((t) => selectedTags.includes(t));
}

export interface RunAsInput {
  /** The action types the selection applies to (a monitor group's actions). */
  actionTypes: readonly string[];
  /** Whether an action is protected (require_protected). */
  protectedAction: boolean;
  mode: RunAsMode;
  /** The selected actors (in tag or zone mode: the actors the selection stands for). */
  selected: readonly RunAsActor[];
  /** In tag mode, the selected tags. */
  selectedTags?: readonly string[];
  /** The chosen profile; null is Run as System. */
  profile: number | null;
  /** MON-067: the interactive session object's flags. */
  required: boolean;
  default: boolean;
  /** MON-066: the user's own tick per mode (undefined: not ticked or unticked by the user in that mode). */
  userTick?: Partial<Record<RunAsMode, boolean>>;
}

export interface RunAsState {
  /** MON-104: whether the run-as select applies (it is disabled when not). */
  supported: boolean;
  /** MON-105: hidden when every action is host_cli. */
  sessionHidden: boolean;
  /** MON-106 (and MON-065 when forced). */
  sessionDisabled: boolean;
  /** MON-065: forced checked. */
  sessionForced: boolean;
  /** Hidden, or disabled by MON-106: the session cannot be on. */
  sessionUnavailable: boolean;
  /** The checkbox's state (MON-064..067). */
  sessionChecked: boolean;
}

/** MON-104: run-as for one type, given the selection. */
function supportsRunAs(type: string, validSelected: number, anySelection: boolean): boolean {
  if (NO_RUN_AS_TYPES.includes(type)) return false;
  if (type === 'host_cli') return true;
  return anySelection && validSelected > 0;
}

export function runAsState(input: RunAsInput): RunAsState {
  const types = input.actionTypes.length ? input.actionTypes : [''];
  const tags = input.selectedTags ?? [];
  const valid = input.selected.filter((a) => validRunAsActor(a, input.mode, tags));
  const anySelection = input.selected.length > 0 && (input.mode !== 'tag' || tags.length > 0);
  const supported = types.some((t) => supportsRunAs(t, valid.length, anySelection));
  const sessionHidden = types.every((t) => t === 'host_cli');
  const windowsSelected = input.selected.some((a) => a.os_base === 'windows');
  const shown = types.filter((t) => t !== 'host_cli');
  const disabledByType =
    (shown.some((t) => SESSION_NEEDS_WINDOWS_TYPES.includes(t)) && !windowsSelected) ||
    (types.includes('host_cli') && input.profile !== null && !input.selected.some((a) => a.sandbox_node_id !== null));
  // MON-065: protected and every selected actor a valid sandboxed actor.
  const sessionForced = !sessionHidden && input.protectedAction && input.selected.length > 0 && input.selected.every((a) => validRunAsActor(a, input.mode, tags) && a.sandbox_node_id !== null);
  const unavailable = sessionHidden || disabledByType;
  // A required session is checked and cannot be unticked; an unavailable one is unchecked.
  const sessionDisabled = sessionForced || unavailable || input.required;
  const own = input.userTick?.[input.mode];
  const sessionChecked = sessionForced ? true : unavailable ? false : input.required || (own ?? input.default);
  return { supported, sessionHidden, sessionDisabled, sessionForced, sessionUnavailable: unavailable, sessionChecked };
}

/** MON-044: the action_user_profile object of a group configuration. */
export interface ActionUserProfileField {
  field_name: 'action_user_profile';
  profiles: { id: number; friendly_name: string; username: string }[];
  /** The profile chosen when nothing is chosen (null: Run as System). */
  default: number | null;
}
/** MON-044: the interactive session object of a group configuration. */
export interface InteractiveSessionField {
  field_name: 'interactive_desktop_session';
  required: boolean;
  default: boolean;
  value: boolean;
}
