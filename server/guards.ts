import type { FastifyRequest } from 'fastify';
import type { ActiveSession } from './auth/sessions';
import { forbidden, unauthorized } from './http-errors';
import type { Permission } from '../src/api/contracts/permissions';

// Route guards. They live apart from app.ts so that the route modules, which app.ts registers, do not
// import app.ts back (an import loop).

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by app.ts's onRequest hook from the session cookie; null when signed out. */
    session: ActiveSession | null;
  }
}

export function requireUser(req: FastifyRequest): ActiveSession {
  if (!req.session) throw unauthorized();
  return req.session;
}

export function requirePermission(req: FastifyRequest, permission: Permission): ActiveSession {
  const session = requireUser(req);
  if (!session.user.permissions.includes(permission)) throw forbidden(`Your role (${session.user.role}) does not allow this: ${permission}.`);
  return session;
}
