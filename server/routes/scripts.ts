import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, forbidden, notFound, validate } from '../http-errors';
import { scriptRunSchema, scriptSaveSchema, type SavedScript, type ScriptRunRecord } from '../../src/api/contracts/scripts';

const SELECT = `select s.id, s.name, s.body, s.shared, s.user_id, u.email as owner_email, s.created_at, s.updated_at
                  from scripts s join users u on u.id = s.user_id`;

function parseId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31 - 1) throw badRequest(`"${raw}" is not a script id.`);
  return id;
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

/** Saved scripts: each user's own plus the shared ones; only the owner (or an admin) changes one. */
export async function scriptsRoutes(app: FastifyInstance) {
  const visible = async (id: number, userId: number): Promise<SavedScript> => {
    const [row] = await app.db.query<SavedScript>(`${SELECT} where s.id = $1 and (s.user_id = $2 or s.shared)`, [id, userId]);
    if (!row) throw notFound(`Script ${id} does not exist or is not shared with you.`);
    return row;
  };
  const owned = async (id: number, session: ReturnType<typeof requireUser>) => {
    const row = await visible(id, session.user.id);
    if (row.user_id !== session.user.id && session.user.role !== 'admin') throw forbidden('Only the owner of a script (or an administrator) may change it.');
    return row;
  };

  app.get('/scripts.json', async (req) => {
    const session = requireUser(req);
    return { data: await app.db.query<SavedScript>(`${SELECT} where s.user_id = $1 or s.shared order by lower(s.name), s.id`, [session.user.id]) };
  });

  app.get<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    return { data: await visible(parseId(req.params.id), session.user.id) };
  });

  app.post('/scripts.json', async (req, reply) => {
    const session = requireUser(req);
    const input = validate(scriptSaveSchema, bodyFields(req.body));
    try {
      const [row] = await app.db.query<{ id: number }>('insert into scripts (user_id, name, body, shared) values ($1, $2, $3, $4) returning id', [
        session.user.id,
        input.name,
        input.body,
        input.shared ?? false,
      ]);
      return reply.status(201).send({ data: await visible(row!.id, session.user.id) });
    } catch (e) {
      if (isUniqueViolation(e)) throw new HttpError(409, `You already have a script named "${input.name}".`, { errors: { name: ['is already taken'] } });
      throw e;
    }
  });

  app.put<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const input = validate(scriptSaveSchema, bodyFields(req.body));
    await owned(id, session);
    try {
      await app.db.query('update scripts set name = $2, body = $3, shared = $4, updated_at = now() where id = $1', [id, input.name, input.body, input.shared ?? false]);
    } catch (e) {
      if (isUniqueViolation(e)) throw new HttpError(409, `A script named "${input.name}" already exists.`, { errors: { name: ['is already taken'] } });
      throw e;
    }
    return { data: await visible(id, session.user.id) };
  });

  app.delete<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    await owned(id, session);
    await app.db.query('delete from scripts where id = $1', [id]);
    return { deleted: id };
  });

  app.get<{ Params: { id: string } }>('/scripts/:id/runs.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    await visible(id, session.user.id);
    const runs = await app.db.query<ScriptRunRecord>(
      `select r.id, r.script_id, u.email as user_email, r.source, r.outcome, r.dry_run, r.steps_total, r.steps_failed, r.started_at, r.finished_at
         from script_runs r left join users u on u.id = r.user_id where r.script_id = $1 order by r.id desc limit 100`,
      [id],
    );
    return { data: runs };
  });

  app.post<{ Params: { id: string } }>('/scripts/:id/runs.json', async (req, reply) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const input = validate(scriptRunSchema, bodyFields(req.body));
    await visible(id, session.user.id);
    const startedAt = new Date(input.started_at);
    if (Number.isNaN(startedAt.getTime())) throw badRequest('started_at is not a valid date-time.', { errors: { started_at: ['is not a valid date-time'] } });
    const [row] = await app.db.query<{ id: number }>(
      `insert into script_runs (script_id, user_id, source, outcome, dry_run, steps_total, steps_failed, transcript, started_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) returning id`,
      [id, session.user.id, input.source, input.outcome, input.dry_run ?? false, input.steps.length, input.steps.filter((s) => s.status === 'failed').length, JSON.stringify(input.steps), startedAt],
    );
    return reply.status(201).send({ data: { id: row!.id } });
  });
}
