import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../app';
import { hashPassword } from '../auth/passwords';
import { HttpError, badRequest, notFound, validate } from '../http-errors';
import { userCreateSchema, userUpdateSchema, type UserRow } from '../../src/api/contracts/session';

const COLUMNS = 'id, email, first_name, last_name, role, created_at';

function parseId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw badRequest(`"${raw}" is not a user id.`);
  return id;
}

export async function adminUsersRoutes(app: FastifyInstance) {
  app.get('/admin/users.json', async (req) => {
    requirePermission(req, 'users.manage');
    return { data: await app.db.query<UserRow>(`select ${COLUMNS} from users order by id`) };
  });

  app.post('/admin/users.json', async (req, reply) => {
    requirePermission(req, 'users.manage');
    const body = { ...(req.body as Record<string, unknown>) };
    delete body.authenticity_token;
    const input = validate(userCreateSchema, body);
    const exists = await app.db.query('select 1 from users where lower(email) = lower($1)', [input.email]);
    if (exists.length) throw new HttpError(409, `A user with the email ${input.email} already exists.`, { errors: { email: ['is already taken'] } });
    const [row] = await app.db.query<UserRow>(
      `insert into users (email, first_name, last_name, role, password_hash) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
      [input.email, input.first_name ?? '', input.last_name ?? '', input.role, await hashPassword(input.password)],
    );
    return reply.status(201).send({ data: row });
  });

  app.patch<{ Params: { id: string } }>('/admin/users/:id.json', async (req) => {
    const session = requirePermission(req, 'users.manage');
    const id = parseId(req.params.id);
    const body = { ...(req.body as Record<string, unknown>) };
    delete body.authenticity_token;
    const input = validate(userUpdateSchema, body);
    const [current] = await app.db.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id]);
    if (!current) throw notFound(`User ${id} does not exist.`);
    if (id === session.user.id && input.role && input.role !== 'admin') {
      throw badRequest('You cannot remove your own administrator role.');
    }
    if (input.role && current.role === 'admin' && input.role !== 'admin') {
      const [{ n } = { n: 0 }] = await app.db.query<{ n: number }>("select count(*)::int as n from users where role = 'admin'");
      if (n <= 1) throw badRequest('The last administrator cannot lose the administrator role.');
    }
    const [row] = await app.db.query<UserRow>(
      `update users set role = coalesce($2, role), first_name = coalesce($3, first_name), last_name = coalesce($4, last_name),
              password_hash = coalesce($5, password_hash), updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, input.role ?? null, input.first_name ?? null, input.last_name ?? null, input.password ? await hashPassword(input.password) : null],
    );
    // A password reset or a role change signs the user out everywhere, except the admin's own session.
    if (input.password || input.role) {
      await app.db.query('delete from sessions where user_id = $1 and id <> $2', [id, session.id]);
    }
    return { data: row };
  });
}
