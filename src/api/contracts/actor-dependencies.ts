/**
 * Actor dependency installs (jobs-simulations-network-map.md sections 2 "Integrations menu", 4 "Actor
 * dependency state", 7 and 8; JOB-061, JOB-097, JOB-108, JOB-109). The director queues a task for an
 * actor (install its dependencies, or report its version); the actor picks it up with its next poll,
 * does the work on its host (finds the programs its action types need, installs the missing ones with
 * the host's package manager when it may) and reports what it found.
 *
 * Calls (the spec leaves the paths unnamed; docs/api.md documents these):
 *   GET  /integrations/dependency_actors.json            the eligible actors with their last task
 *   POST /topology/nodes/{id}/install_dependencies.json  queue an install (201, the task)
 *   POST /topology/nodes/{id}/version_check.json         queue a version check (201, the task)
 *   GET  /topology/nodes/{id}/dependencies.json          the actor with its last task (polled until it settles)
 *   actor side: the poll answer's `tasks`, and POST {ACTOR_API}/tasks/{id}/result
 */
import * as yup from 'yup';

export const DEPENDENCY_STATES = ['NOT_INSTALLED', 'INSTALLING', 'INSTALLED', 'FAILED'] as const;
export type DependencyState = (typeof DEPENDENCY_STATES)[number];

export const ACTOR_TASK_KINDS = ['install_dependencies', 'version_check'] as const;
export type ActorTaskKind = (typeof ACTOR_TASK_KINDS)[number];
export type ActorTaskStatus = 'queued' | 'claimed' | 'done' | 'failed';

/** JOB-108, JOB-109 verbatim. */
export const INSTALL_FAILED_TEXT = 'Could not install the dependencies on actor';
export const INSTALL_TOAST_TITLE = 'Install Dependencies on actor';
export const installedText = (name: string) => `Dependencies on ${name} successfully installed.`;

/** One program an actor's action types need, as the actor found it. */
export interface ActorDependency {
  /** The program looked for (the first name found of its alternatives). */
  program: string;
  /** What needs it (action types and options). */
  needed_for: string;
  /** Missing optional programs do not fail the install (e.g. rar, which is non-free). */
  optional: boolean;
  found: boolean;
  path: string | null;
  version: string | null;
  /** The package the actor installs it from with its package manager, when it knows one. */
  package: string | null;
  /** Installed by this task. */
  installed_now: boolean;
  /** Why it could not be installed. */
  error: string | null;
}

export interface ActorTask {
  id: number;
  kind: ActorTaskKind;
  status: ActorTaskStatus;
  message: string | null;
  dependencies: ActorDependency[] | null;
  requested_at: string;
  finished_at: string | null;
}

/** An actor dependencies can be installed on (registered, not retired), with its last task. */
export interface DependencyActor {
  id: number;
  name: string;
  status: string;
  os: string;
  msi_service_version: string | null;
  deps_installed: boolean;
  /** The last task of any kind. */
  task: ActorTask | null;
  /** The last dependency install, with its report. */
  install: ActorTask | null;
}

export const isOpenTask = (t: ActorTask | null | undefined): boolean => !!t && (t.status === 'queued' || t.status === 'claimed');

/**
 * JOB-061: INSTALLING while the install call runs or a local marker exists; INSTALLED when
 * deps_installed is true; FAILED when the service version is unknown or the last install failed;
 * NOT_INSTALLED otherwise.
 */
export function dependencyState(actor: DependencyActor, installing: boolean): DependencyState {
  if (installing || isOpenTask(actor.install)) return 'INSTALLING';
  if (actor.deps_installed) return 'INSTALLED';
  if (!actor.msi_service_version || actor.install?.status === 'failed') return 'FAILED';
  return 'NOT_INSTALLED';
}

export const DEPENDENCY_STATE_LABELS: Record<DependencyState, string> = { NOT_INSTALLED: 'Not installed', INSTALLING: 'Installing…', INSTALLED: 'Installed', FAILED: 'Failed' };

// ---- the actor's side -------------------------------------------------------------------------

/** A task as signed for one actor (checked like work: signature, addressee, expiry). */
export interface ActorTaskPayload {
  task_id: number;
  node_id: number;
  kind: ActorTaskKind;
  issued_at: string;
  expires_at: string;
}

export interface SignedTask {
  id: number;
  payload: string;
  signature: string;
}

const dependencySchema = yup
  .object({
    program: yup.string().required().max(40),
    needed_for: yup.string().default('').max(200),
    optional: yup.boolean().default(false),
    found: yup.boolean().required(),
    path: yup.string().nullable().default(null).max(300),
    version: yup.string().nullable().default(null).max(200),
    package: yup.string().nullable().default(null).max(80),
    installed_now: yup.boolean().default(false),
    error: yup.string().nullable().default(null).max(1000),
  })
  .noUnknown();

export const taskResultSchema = yup
  .object({
    session: yup.string().trim().required('session is required').max(64),
    ok: yup.boolean().required('ok is required'),
    message: yup.string().nullable().default(null).max(2000),
    version: yup.string().trim().required('version is required').max(40),
    os: yup.string().trim().max(100).default(''),
    dependencies: yup.array(dependencySchema.required()).max(40).default([]),
  })
  .noUnknown();
export type TaskResult = yup.InferType<typeof taskResultSchema>;
