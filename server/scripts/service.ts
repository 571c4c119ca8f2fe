/**
 * Saved scripts and their run records (SQL behind server/routes/scripts.ts): each user sees their own
 * scripts plus the shared ones; only the owner (or an administrator) changes one.
 */
import type { Db } from '../db/index';
import { HttpError, badRequest, forbidden, notFound } from '../http-errors';
import type { SavedScript, ScriptRunFinishInput, ScriptRunInput, ScriptRunOpenInput, ScriptRunRecord, ScriptSaveInput } from '../../src/api/contracts/scripts';

/** Who is asking: the signed-in user's id and role. */
export interface ScriptUser {
  id: number;
  role: string;
}

const SELECT = `select s.id, s.name, s.body, s.shared, s.user_id, u.email as owner_email, trim(u.first_name || ' ' || u.last_name) as owner_name, s.created_at, s.updated_at
                  from scripts s join users u on u.id = s.user_id`;

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

const nameTaken = (message: string) => new HttpError(409, message, { errors: { name: ['is already taken'] } });

export function listScripts(db: Db, userId: number): Promise<SavedScript[]> {
  return db.query<SavedScript>(`${SELECT} where s.user_id = $1 or s.shared order by lower(s.name), s.id`, [userId]);
}

/** A script the user may see (their own or a shared one), or 404. */
export async function visibleScript(db: Db, id: number, userId: number): Promise<SavedScript> {
  const [row] = await db.query<SavedScript>(`${SELECT} where s.id = $1 and (s.user_id = $2 or s.shared)`, [id, userId]);
  if (!row) throw notFound(`Script ${id} does not exist or is not shared with you.`);
  return row;
}

/** A script the user may change (the owner, or an administrator), or 404/403. */
async function ownedScript(db: Db, id: number, user: ScriptUser): Promise<SavedScript> {
  const row = await visibleScript(db, id, user.id);
  if (row.user_id !== user.id && user.role !== 'admin') throw forbidden('Only the owner of a script (or an administrator) may change it.');
  return row;
}

export async function createScript(db: Db, userId: number, input: ScriptSaveInput): Promise<SavedScript> {
  try {
    const [row] = await db.query<{ id: number }>('insert into scripts (user_id, name, body, shared) values ($1, $2, $3, $4) returning id', [userId, input.name, input.body, input.shared ?? false]);
    return await visibleScript(db, row!.id, userId);
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(`You already have a script named "${input.name}".`);
    throw e;
  }
}

export async function updateScript(db: Db, id: number, user: ScriptUser, input: ScriptSaveInput): Promise<SavedScript> {
  await ownedScript(db, id, user);
  try {
    await db.query('update scripts set name = $2, body = $3, shared = $4, updated_at = now() where id = $1', [id, input.name, input.body, input.shared ?? false]);
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(`A script named "${input.name}" already exists.`);
    throw e;
  }
  return visibleScript(db, id, user.id);
}

export async function deleteScript(db: Db, id: number, user: ScriptUser): Promise<void> {
  await ownedScript(db, id, user);
  await db.query('delete from scripts where id = $1', [id]);
}

/** The last 100 runs of a script the user may see. */
export async function listScriptRuns(db: Db, id: number, userId: number): Promise<ScriptRunRecord[]> {
  await visibleScript(db, id, userId);
  return db.query<ScriptRunRecord>(
    `select r.id, r.script_id, u.email as user_email, r.source, r.outcome, r.dry_run, r.steps_total, r.steps_failed, r.started_at, r.finished_at
       from script_runs r left join users u on u.id = r.user_id where r.script_id = $1 order by r.id desc limit 100`,
    [id],
  );
}

function startedAtOf(raw: string): Date {
  const startedAt = new Date(raw);
  if (Number.isNaN(startedAt.getTime())) throw badRequest('started_at is not a valid date-time.', { errors: { started_at: ['is not a valid date-time'] } });
  return startedAt;
}

/**
 * Records a run of a script the user may see, its runner being the user: opened before its first step
 * (no outcome yet: 'running'), or whole at once (outcome and transcript). Answers its id.
 */
export async function recordScriptRun(db: Db, id: number, userId: number, input: ScriptRunOpenInput | ScriptRunInput): Promise<number> {
  await visibleScript(db, id, userId);
  const startedAt = startedAtOf(input.started_at);
  const steps = 'steps' in input ? input.steps : [];
  const outcome = 'outcome' in input ? input.outcome : 'running';
  const [row] = await db.query<{ id: number }>(
    `insert into script_runs (script_id, user_id, source, outcome, dry_run, steps_total, steps_failed, transcript, started_at, finished_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, case when $4 = 'running' then null else now() end) returning id`,
    [id, userId, input.source, outcome, input.dry_run ?? false, steps.length, steps.filter((s) => s.status === 'failed').length, JSON.stringify(steps), startedAt],
  );
  return row!.id;
}

/** Finishes an open run: only its runner may (403 otherwise), once (409 when already finished). */
export async function finishScriptRun(db: Db, id: number, runId: number, userId: number, input: ScriptRunFinishInput): Promise<void> {
  await visibleScript(db, id, userId);
  const [run] = await db.query<{ user_id: number | null; outcome: string }>('select user_id, outcome from script_runs where id = $1 and script_id = $2', [runId, id]);
  if (!run) throw notFound(`Script ${id} has no run ${runId}.`);
  if (run.user_id !== userId) throw forbidden('Only the user who ran a script records that run.');
  const [done] = await db.query<{ id: number }>(
    `update script_runs set outcome = $3, steps_total = $4, steps_failed = $5, transcript = $6::jsonb, finished_at = now()
      where id = $1 and script_id = $2 and outcome = 'running' returning id`,
    [runId, id, input.outcome, input.steps.length, input.steps.filter((s) => s.status === 'failed').length, JSON.stringify(input.steps)],
  );
  if (!done) throw new HttpError(409, `Run ${runId} is already finished.`);
}
