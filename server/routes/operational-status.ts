/** GET /operational_status.json (MON-006; the page's call is not shown in the spec: ours, docs/api.md). */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import type { OperationalStatus } from '../../src/api/contracts/operational-status';
import { readOperationalStatus } from '../admin/operational-status';

export async function operationalStatusRoutes(app: FastifyInstance) {
  app.get('/operational_status.json', async (req): Promise<OperationalStatus> => {
    const session = requireUser(req);
    return readOperationalStatus(app.db, { id: session.user.id, all: session.user.permissions.includes('users.manage') });
  });
}
