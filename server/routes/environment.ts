import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import type { Environment } from '../../src/api/contracts/session';
import { environmentOf } from '../environment';

export async function environmentRoutes(app: FastifyInstance) {
  app.get('/environment.json', (req): Promise<Environment> => environmentOf(app.db, requireUser(req), app.config.sessionTimeoutMin));
}
