/**
 * Actor tasks outside jobs (JOB-061, JOB-097): installing an actor's dependencies and checking its
 * version. Queued here by routes/actor-dependencies.ts, claimed by the actor's poll (routes/actors.ts),
 * and settled by the actor's report, which also updates the actor's version and deps_installed.
 */
import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';

const conflict = (message: string) => new HttpError(409, message);
import type { ActorTask, ActorTaskKind, DependencyActor, TaskResult } from '../../src/api/contracts/actor-dependencies';

/** A claimed task the actor has not reported after this long has failed (the actor died or hung). */
export const TASK_TIMEOUT_MINUTES = 15;

interface TaskRow {
  id: number;
  kind: ActorTaskKind;
  status: ActorTask['status'];
  message: string | null;
  report: { dependencies?: ActorTask['dependencies'] } | null;
  created_at: string;
  finished_at: string | null;
}
const toTask = (r: TaskRow): ActorTask => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  message: r.message,
  dependencies: r.report?.dependencies ?? null,
  requested_at: new Date(r.created_at).toISOString(),
  finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
});

const TASK_COLUMNS = 't.id, t.kind, t.status, t.message, t.report, t.created_at::text, t.finished_at::text';

/** Claimed tasks past their time have failed, with the reason (run before reading). */
async function expireTasks(db: Db, nodeId?: number) {
  await db.query(
    `update actor_tasks set status = 'failed', finished_at = now(), message = 'The actor did not report within ${TASK_TIMEOUT_MINUTES} minutes.'
      where status = 'claimed' and claimed_at < now() - interval '${TASK_TIMEOUT_MINUTES} minutes' ${nodeId ? 'and node_id = $1' : ''}`,
    nodeId ? [nodeId] : [],
  );
}

const ACTOR_QUERY = `
  select n.id, n.name, n.status, n.os, n.msi_service_version, n.deps_installed,
         (select row_to_json(x) from (select ${TASK_COLUMNS} from actor_tasks t where t.node_id = n.id order by t.id desc limit 1) x) as task,
         (select row_to_json(x) from (select ${TASK_COLUMNS} from actor_tasks t where t.node_id = n.id and t.kind = 'install_dependencies' order by t.id desc limit 1) x) as install
    from nodes n
   where n.token_hash is not null and n.retired_at is null`;

type ActorRow = Omit<DependencyActor, 'task' | 'install'> & { task: TaskRow | null; install: TaskRow | null };
const toActor = (r: ActorRow): DependencyActor => ({ ...r, task: r.task ? toTask(r.task) : null, install: r.install ? toTask(r.install) : null });

/** The actors dependencies can be installed on: registered with the director and not retired (JOB-097). */
export async function dependencyActors(db: Db): Promise<DependencyActor[]> {
  await expireTasks(db);
  return (await db.query<ActorRow>(`${ACTOR_QUERY} order by lower(n.name), n.id`)).map(toActor);
}

export async function dependencyActor(db: Db, nodeId: number): Promise<DependencyActor> {
  await expireTasks(db, nodeId);
  const [row] = await db.query<ActorRow>(`${ACTOR_QUERY} and n.id = $1`, [nodeId]);
  if (!row) throw notFound(`Actor ${nodeId} does not exist, is retired, or never registered with this director.`);
  return toActor(row);
}

/** Queues a task for an online actor; refuses a second open task of the same kind. */
export async function queueTask(db: Db, nodeId: number, kind: ActorTaskKind, userId: number): Promise<ActorTask> {
  const actor = await dependencyActor(db, nodeId);
  if (actor.status !== 'online') throw conflict(`Actor ${actor.name} is ${actor.status}: start it (or wait for it to call in), then try again.`);
  const what = kind === 'install_dependencies' ? 'Dependencies are already being installed on' : 'A version check is already waiting for';
  const rows = await db.query<TaskRow>(
    `insert into actor_tasks (node_id, kind, requested_by) values ($1, $2, $3)
     on conflict (node_id, kind) where status in ('queued', 'claimed') do nothing
     returning id, kind, status, message, report, created_at::text, finished_at::text`,
    [nodeId, kind, userId],
  );
  if (!rows[0]) throw conflict(`${what} ${actor.name}.`);
  return toTask(rows[0]);
}

/** The actor's queued tasks, now claimed by its process `session`. */
export async function claimTasks(db: Db, nodeId: number, session: string): Promise<{ id: number; kind: ActorTaskKind }[]> {
  return db.query<{ id: number; kind: ActorTaskKind }>(
    `update actor_tasks set status = 'claimed', claimed_at = now(), actor_session = $2 where node_id = $1 and status = 'queued' returning id, kind`,
    [nodeId, session],
  );
}

/** Tasks claimed by an earlier process of the actor cannot finish: they fail with the reason. */
export async function failTasksOfOtherSessions(db: Db, nodeId: number, session: string, name: string): Promise<void> {
  await db.query(
    `update actor_tasks set status = 'failed', finished_at = now(), message = $3 where node_id = $1 and status = 'claimed' and actor_session is distinct from $2`,
    [nodeId, session, `Actor ${name} restarted while performing this task.`],
  );
}

/**
 * Stores the actor's report of a task it claimed: the task settles (done, or failed with the actor's
 * message); the actor's version and OS are what it reported, and an install sets deps_installed.
 */
export async function storeTaskResult(db: Db, node: { id: number; name: string }, taskId: number, input: TaskResult): Promise<void> {
  await db.transaction(async (tx) => {
    const [task] = await tx.query<{ kind: ActorTaskKind; status: string; actor_session: string | null }>('select kind, status, actor_session from actor_tasks where id = $1 and node_id = $2 for update', [taskId, node.id]);
    if (!task) throw notFound(`Task ${taskId} is not one of actor ${node.name}'s.`);
    if (task.status !== 'claimed' || task.actor_session !== input.session) throw new HttpError(409, `Task ${taskId} is not open for this actor process (it is ${task.status}).`);
    await tx.query(`update actor_tasks set status = $2, message = $3, report = $4, finished_at = now() where id = $1`, [
      taskId,
      input.ok ? 'done' : 'failed',
      input.message,
      JSON.stringify({ version: input.version, os: input.os, dependencies: task.kind === 'install_dependencies' ? input.dependencies : undefined }),
    ]);
    await tx.query(
      `update nodes set msi_service_version = $2, node_version = $2, os = case when $3 = '' then os else $3 end,
              deps_installed = case when $4::boolean is null then deps_installed else $4 end, updated_at = now()
        where id = $1`,
      [node.id, input.version, input.os, task.kind === 'install_dependencies' ? input.ok : null],
    );
  });
}
