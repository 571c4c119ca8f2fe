/**
 * Shapes of the engine calls, shared by the director, the actor agent and the workbench:
 * the actor API (register, heartbeat, poll, ready, results), the run calls and integration events.
 */
import * as yup from 'yup';
import type { SignedTask } from './actor-dependencies';

/** Every actor call lives under this prefix; it authenticates with `Authorization: Bearer <token>`, never a cookie. */
export const ACTOR_API = '/api/actor';

/**
 * Node's flags for an actor process (whoever starts one: the local actors, the lab, the installer, the
 * bench): V8 compiles each function to baseline machine code (Sparkplug) the first time it runs instead
 * of interpreting it until it is warm. An actor's code never gets hot: its work is a few calls and
 * sockets per action spread over Node's HTTP and net modules, and a `perf` profile of 50 actors spent
 * most of its time in the interpreter's inline-cache builtins. With the flag an action costs the actors
 * about a sixth less CPU (bench:engine, 50 actors: 6.3-6.4 -> 5.0-5.5 ms per action for both actors).
 * actor/main.ts sets it itself when started without it, which helps less (Node's own modules, loaded
 * before, stay interpreted): 5.7-6.1 ms.
 */
export const ACTOR_NODE_FLAGS: readonly string[] = ['--always-sparkplug'];

/**
 * The actor channel: `GET {ACTOR_API}{ACTOR_CHANNEL}` with the actor's bearer credential upgrades to a
 * WebSocket that carries the actor's calls (every POST of the actor API but /register and the file
 * downloads), each a message `ChannelCall` answered by a message `ChannelAnswer` with the same `id`,
 * the status and the body the HTTP call would answer. Why: a call over HTTP cost the actor about 0.3 ms
 * of CPU and the director about 0.15 ms more than a message (headers, parsers and streams per request),
 * and an action makes five. An actor whose director (or a proxy in between) refuses the upgrade calls
 * over HTTP.
 */
export const ACTOR_CHANNEL = '/channel';

export interface ChannelCall {
  /** The actor's number for the call (its answer carries it back); calls are answered in any order. */
  id: number;
  /** The call's path under ACTOR_API, as over HTTP: `/poll`, `/heartbeat`, `/work/12/result`... */
  call: string;
  body: unknown;
}

export interface ChannelAnswer {
  id: number;
  /** The HTTP status the call would answer (200, or 4xx/5xx with `{ error }`). */
  status: number;
  body: unknown;
}
export const ACTOR_VERSION = '1.0.0';

/** Types performed by one actor (the step has no destination). */
export const SINGLE_ACTOR_TYPES: readonly string[] = ['dns', 'host_cli', 'cloud', 'sleep', 'captive_dns', 'captive_ioc_url', 'captive_ioc_pcap'];

/** The largest file-library entry handed to an actor (email attachments, file_transfer files). */
export const MAX_WORK_FILE_BYTES = 8 * 1024 * 1024;

/** A file-library entry the work needs; the actor downloads its bytes and checks them against sha256. */
export interface WorkFile {
  id: number;
  name: string;
  sha256: string;
  size: number;
  /** email: how the attachment is encoded in the message. */
  attachment_encoding?: string;
  /** email: the entry has no content and the action says to go on without it. */
  missing?: boolean;
  /** host_cli: where the actor delivers the file before the script runs. */
  destination_directory?: string;
  destination_name?: string;
}

/** The dns_servers address meaning "the destination actor answers as the DNS server". */
export const DESTINATION_DNS_ADDRESS = 'destination-actor';

/** Limits the director enforces on actor input. */
export const MAX_RESULT_BYTES = 256 * 1024;
export const MAX_ADDRESSES = 16;

const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export const registerSchema = yup
  .object({
    bulk_token: yup.string().trim().required('bulk_token is required').max(200),
    name: yup.string().trim().required('name is required').max(100),
    version: yup.string().trim().max(40).default(''),
    os: yup.string().trim().max(100).default(''),
    /** The account the actor runs as on its host (MON-042 username); older actors send none. */
    username: yup.string().trim().max(100).default(''),
    addresses: yup
      .array(yup.string().required().matches(ipv4, 'addresses must be IPv4 addresses'))
      .min(1, 'addresses needs at least one address')
      .max(MAX_ADDRESSES)
      .required('addresses is required'),
    capabilities: yup.array(yup.string().required().max(40)).max(40).required('capabilities is required'),
  })
  .noUnknown();

export interface RegisterAnswer {
  node_id: number;
  /** The actor's own credential; only its hash is stored. */
  token: string;
  /** Ed25519 public key (PEM) the actor checks every work item's signature with. */
  signing_key: string;
  heartbeat_ms: number;
}

/** A target's readiness carried by its next poll (as /work/{id}/ready would send it). */
const pollReadySchema = yup
  .object({
    work_id: yup.number().integer().positive().required(),
    port_map: yup.object().default({}),
    port_failures: yup.object().default({}),
    login: yup.string().trim().max(32).matches(/^[a-z_][a-z0-9_.-]*$/i, 'login must be a user name'),
  })
  .noUnknown();

/** What a target's closed servers saw, carried by its next poll (as /work/{id}/evidence would send it). */
const pollEvidenceSchema = yup
  .object({
    work_id: yup.number().integer().positive().required(),
    evidence: yup.object().required('evidence is required'),
  })
  .noUnknown();

/** An actor's result of a work item (/work/{id}/result, or carried by its next poll). */
const resultFields = {
  outcome: yup.string().oneOf(['ran', 'errored', 'incompatible', 'aborted']).required('outcome is required'),
  blocked: yup.boolean().nullable().default(null),
  message: yup.string().max(2000).nullable().default(null),
  evidence: yup.object().default({}),
};

/** A result carried by the actor's next poll (the poll's session is its session). */
const pollResultSchema = yup
  .object({ work_id: yup.number().integer().positive().required(), ...resultFields })
  .noUnknown();

/** The largest poll body (a poll may carry targets' evidence and sources' results; larger ones go by /work/{id}/evidence and /result). */
export const MAX_POLL_BYTES = 256 * 1024;

export const pollSchema = yup
  .object({
    /** A random id per actor process: work claimed by an earlier process of the same actor is ended. */
    session: yup.string().trim().required('session is required').max(64),
    /** Work ids the actor is performing now; the answer's `abort` lists the ones to stop. */
    holding: yup.array(yup.number().integer().positive().required()).max(100).default([]),
    wait_ms: yup.number().integer().min(0).max(20000).default(5000),
    /** Targets now serving (stored before the poll looks for work: one call less per action than /ready). */
    ready: yup.array(pollReadySchema).max(16).default([]),
    /** Targets whose servers closed, with what they saw (stored first, like /evidence); not in `holding`. */
    evidence: yup.array(pollEvidenceSchema).max(16).default([]),
    /** Work the actor finished, with its result (stored like /result, before the poll looks); not in `holding`. */
    results: yup.array(pollResultSchema).max(16).default([]),
  })
  .noUnknown();

export interface WorkPayload {
  work_id: number;
  node_id: number;
  job_id: number;
  job_action_id: number;
  role: 'source' | 'target';
  action_type: string;
  name: string;
  details: Record<string, unknown>;
  timeout_ms: number;
  /** The address this actor uses. */
  local_address: string;
  /** The other actor's address (absent for single-actor work). */
  peer_address?: string;
  /** The addresses the other actor reported when it registered: peer_address must be one of them. */
  peer_addresses?: string[];
  /** For the source: where the target actually serves each requested port ("445" -> 445 or another port). */
  port_map?: Record<string, number>;
  /** The login the target's one-time service (file_transfer's sshd) accepts the source as. */
  peer_login?: string;
  /** Ports the target could not open, with the reason. */
  port_failures?: Record<string, string>;
  /** File-library entries the work needs (download: POST {ACTOR_API}/work/{work_id}/files/{id}). */
  files?: WorkFile[];
  issued_at: string;
  expires_at: string;
}

export interface SignedWork {
  id: number;
  /** JSON of WorkPayload, exactly as signed. */
  payload: string;
  /** base64 Ed25519 signature of `payload`. */
  signature: string;
}

export interface PollAnswer {
  work: SignedWork[];
  abort: number[];
  /** The poll's `ready` and `evidence` items the director refused (the work was not this process's open target work), with why. */
  refused?: { work_id: number; error: string }[];
  /** Tasks outside jobs (install dependencies, report the version), signed like work. */
  tasks?: SignedTask[];
}

/** The answer of the actor calls that only report (heartbeat, ready, evidence, result, a task's result). */
export interface ActorOkAnswer {
  ok: true;
}

export const readySchema = yup
  .object({
    session: yup.string().trim().required().max(64),
    port_map: yup.object().default({}),
    port_failures: yup.object().default({}),
    /** The login of the one-time sshd a file_transfer target runs for scp and ssh tunnels. */
    login: yup.string().trim().max(32).matches(/^[a-z_][a-z0-9_.-]*$/i, 'login must be a user name'),
  })
  .noUnknown();

export const resultSchema = yup
  .object({ session: yup.string().trim().required().max(64), ...resultFields })
  .noUnknown();

/** What a target actor saw while serving (what arrived on the wire), sent when its servers close. */
export const targetEvidenceSchema = yup
  .object({
    session: yup.string().trim().required().max(64),
    evidence: yup.object().required('evidence is required'),
  })
  .noUnknown();

export const heartbeatSchema = yup.object({ session: yup.string().trim().required().max(64) }).noUnknown();

// ---- running jobs (the Run All Actions form) ----

/** The most steps a run can aim (attack_node_id_{n} / target_node_id_{n}, n = 1..MAX_RUN_STEPS). */
export const MAX_RUN_STEPS = 200;

const stepActor = (n: number, label: string) =>
  yup
    .number()
    .typeError(n === 1 ? `${label} must be chosen` : `Step ${n}: ${label} must be an actor id`)
    .integer(`Step ${n}: ${label} must be an actor id`)
    .positive(`Step ${n}: ${label} must be an actor id`)
    .max(2_147_483_647, `Step ${n}: ${label} must be an actor id`);

const stepFields: Record<string, ReturnType<typeof stepActor>> = {};
for (let n = 2; n <= MAX_RUN_STEPS; n++) {
  stepFields[`attack_node_id_${n}`] = stepActor(n, 'Source Actor');
  stepFields[`target_node_id_${n}`] = stepActor(n, 'Destination Actor');
}

/**
 * What force_unlock asks, in words (the spec names the field only: "force_unlock equals the unlocked
 * state" of the Run All Actions lock toggle): the label wherever a form asks for it.
 */
export const FORCE_UNLOCK_LABEL = 'Unlocked: run on any registered actor, offline ones too';

/**
 * The Run All Actions form, and a run assembled step by step: attack_node_id_{n}/target_node_id_{n}
 * aim step n (1-based); a step without its own pair runs between the step 1 pair. The Destination
 * Actor is required only by steps that need two actors (the director checks that per step).
 */
export const runSchema = yup
  .object({
    attack_node_id_1: stepActor(1, 'Source Actor').required('Source Actor must be chosen'),
    target_node_id_1: stepActor(1, 'Destination Actor'),
    ...stepFields,
    force_unlock: yup.boolean().label(FORCE_UNLOCK_LABEL).default(false),
  })
  .noUnknown(`Unknown field: use attack_node_id_{n} and target_node_id_{n} with n from 1 to ${MAX_RUN_STEPS}, and force_unlock.`);

/** The actor pair of every step n named in a run request (index n - 1; undefined where none is given). */
export function stepPairs(input: Record<string, unknown>): { source?: number; target?: number }[] {
  const pairs: { source?: number; target?: number }[] = [];
  for (const [key, value] of Object.entries(input)) {
    const m = /^(attack|target)_node_id_(\d+)$/.exec(key);
    if (!m || typeof value !== 'number') continue;
    const pair = (pairs[Number(m[2]) - 1] ??= {});
    if (m[1] === 'attack') pair.source = value;
    else pair.target = value;
  }
  return pairs;
}
export type RunRequest = yup.InferType<typeof runSchema>;

export interface RunAnswer {
  job_id: number;
  name: string;
  status: string;
  url: string;
}

export interface RunActor {
  id: number;
  name: string;
  status: string;
  sim_address: string;
  security_zone_id: number | null;
  zone_name: string | null;
  capabilities: string[];
}

// ---- integration events ----

export const MAX_EVENTS_PER_POST = 1000;
