import type { FastifyInstance } from 'fastify';
import { sessionCookie, toSessionUser } from '../auth/sessions';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/passwords';
import { USER_BY_EMAIL_SQL } from '../auth/sign-in-sql';
import { requireGoodPassword } from '../auth/password-policy';
import { HttpError, badRequest, bodyFields, validate } from '../http-errors';
import { requireUser } from '../guards';
import { passwordChangeSchema, signInSchema, type SessionStateAnswer, type SignInAnswer, type VerifySessionAnswer } from '../../src/api/contracts/session';
import { THROTTLE_WINDOW_MIN } from '../auth/throttle';
import { environmentOf } from '../environment';


export async function usersRoutes(app: FastifyInstance) {
  app.post('/users/sign_in.json', async (req, reply): Promise<SignInAnswer> => {
    const { email, password } = validate(signInSchema, bodyFields(req.body));
    // The ticket is taken before the password is checked, so concurrent guesses cannot race the count.
    const ticket = await app.throttle.take(email, req.ip);
    if (app.throttle.isLocked(ticket)) {
      throw new HttpError(429, `Too many failed sign-in attempts. Try again in ${THROTTLE_WINDOW_MIN} minutes.`);
    }
    await app.throttle.slowDown(ticket);
    const rows = await app.db.query<{ id: number; email: string; first_name: string; last_name: string; role: string; password_hash: string }>(USER_BY_EMAIL_SQL, [email]);
    const row = rows[0];
    const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
    if (!row || !ok) {
      await app.throttle.recordFailure(email, req.ip);
      throw new HttpError(401, 'Invalid email or password.');
    }
    await app.throttle.succeeded(email, req.ip);
    // Session rotation: the session this browser had before (if any) dies with this sign-in.
    if (req.session) await app.sessions.destroy(req.session);
    const { cookie, csrfToken } = await app.sessions.create(row.id);
    const c = sessionCookie(req.protocol === 'https');
    reply.setCookie(c.name, cookie, c.options);
    const user = toSessionUser(row);
    // The environment comes with the answer: the workbench draws without a second round trip.
    return { csrf_token: csrfToken, user, environment: await environmentOf(app.db, { user, csrfToken }, app.config.sessionTimeoutMin) };
  });

  // A user changes their own password: the current one proves it is them (throttled like a sign-in, so a
  // stolen session cannot guess it quickly); every other session of the user ends, this one stays.
  app.post('/users/password.json', async (req) => {
    const session = requireUser(req);
    const input = validate(passwordChangeSchema, bodyFields(req.body));
    const ticket = await app.throttle.take(session.user.email, req.ip);
    if (app.throttle.isLocked(ticket)) throw new HttpError(429, `Too many failed attempts. Try again in ${THROTTLE_WINDOW_MIN} minutes.`);
    await app.throttle.slowDown(ticket);
    const [row] = await app.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [session.user.id]);
    if (!row || !(await verifyPassword(input.current_password, row.password_hash))) {
      await app.throttle.recordFailure(session.user.email, req.ip);
      throw badRequest('The current password is not correct.', { errors: { current_password: ['is not correct'] } });
    }
    await app.throttle.succeeded(session.user.email, req.ip);
    if (input.password === input.current_password) {
      throw badRequest('The new password must differ from the current one.', { errors: { password: ['must differ from the current password'] } });
    }
    requireGoodPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    const ended = await app.db.transaction(async (tx) => {
      await tx.query('update users set password_hash = $2, updated_at = now() where id = $1', [session.user.id, passwordHash]);
      const gone = await tx.query('delete from sessions where user_id = $1 and id <> $2 returning id', [session.user.id, session.id]);
      return gone.length;
    });
    return { changed: true, other_sessions_ended: ended };
  });

  app.delete('/users/sign_out', async (req, reply) => {
    if (req.session) await app.sessions.destroy(req.session);
    const c = sessionCookie(req.protocol === 'https');
    reply.clearCookie(c.name, c.options);
    return { signed_out: true };
  });

  // Answers signed-out browsers too (200, not 401), so a signed-out load asks nothing that fails.
  // Signed in, the answer carries the environment: a load of the workbench asks one question, not two.
  app.get('/users/session.json', async (req): Promise<SessionStateAnswer> =>
    req.session ? { signed_in: true, environment: await environmentOf(app.db, req.session, app.config.sessionTimeoutMin) } : { signed_in: false },
  );

  app.get('/users/verify_user_session', async (req): Promise<VerifySessionAnswer> => {
    const session = requireUser(req);
    return { time_left: Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)) };
  });

  app.get('/users/reset_user_session_timeout', async (req): Promise<VerifySessionAnswer> => {
    const session = requireUser(req);
    const expiresAt = await app.sessions.touch(session, true);
    return { time_left: Math.floor((expiresAt.getTime() - Date.now()) / 1000) };
  });
}
