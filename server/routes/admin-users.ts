import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../guards';
import { hashPassword } from '../auth/passwords';
import { requireGoodPassword } from '../auth/password-policy';
import { HttpError, badRequest, bodyFields, notFound, validate } from '../http-errors';
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
    const input = validate(userCreateSchema, bodyFields(req.body));
    requireGoodPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    // One statement, so two simultaneous requests for one email answer 201 and 409 (not a unique-violation 500).
    const [row] = await app.db.query<UserRow>(
      `insert into users (email, first_name, last_name, role, password_hash)
         select $1, $2, $3, $4, $5 where not exists (select 1 from users where lower(email) = lower($1))
         on conflict (email) do nothing returning ${COLUMNS}`,
      [input.email, input.first_name ?? '', input.last_name ?? '', input.role, passwordHash],
    );
    if (!row) throw new HttpError(409, `A user with the email ${input.email} already exists.`, { errors: { email: ['is already taken'] } });
    return reply.status(201).send({ data: row });
  });

  app.patch<{ Params: { id: string } }>('/admin/users/:id.json', async (req) => {
    const session = requirePermission(req, 'users.manage');
    const id = parseId(req.params.id);
    const input = validate(userUpdateSchema, bodyFields(req.body));
    if (id === session.user.id && input.role && input.role !== 'admin') {
      throw badRequest('You cannot remove your own administrator role.');
    }
    if (input.password !== undefined) requireGoodPassword(input.password);
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const row = await app.db.transaction(async (tx) => {
      const [current] = await tx.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id]);
      if (!current) throw notFound(`User ${id} does not exist.`);
      if (input.role && input.role !== 'admin') {
        // Locks the administrator rows, so two admins demoting each other at once cannot leave none.
        const admins = await tx.query<{ id: number }>("select id from users where role = 'admin' for update");
        if (admins.some((a) => a.id === id) && admins.length <= 1) throw badRequest('The last administrator cannot lose the administrator role.');
      }
      const [updated] = await tx.query<UserRow>(
        `update users set role = coalesce($2, role), first_name = coalesce($3, first_name), last_name = coalesce($4, last_name),
                password_hash = coalesce($5, password_hash), updated_at = now()
          where id = $1 returning ${COLUMNS}`,
        [id, input.role ?? null, input.first_name ?? null, input.last_name ?? null, passwordHash],
      );
      // A password reset or a role change signs the user out everywhere, except the admin's own session.
      if (input.password || input.role) {
        await tx.query('delete from sessions where user_id = $1 and id <> $2', [id, session.id]);
      }
      return updated;
    });
    return { data: row };
  });
}
