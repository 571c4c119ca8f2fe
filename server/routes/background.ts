import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import type { BackgroundProcessesAnswer, BackgroundProcessNotice } from '../../src/api/contracts/session';

/**
 * Finished background processes of the signed-in user not yet shown to them. Each is answered once:
 * answering marks it notified, so the 60 s poll shows every finished process exactly once.
 */
export async function backgroundRoutes(app: FastifyInstance) {
  app.get('/check_completed_background_processes', async (req): Promise<BackgroundProcessesAnswer> => {
    const session = requireUser(req);
    const rows = await app.db.query<BackgroundProcessNotice & { status: string; updated_at: Date | string }>(
      `update background_processes set notified = true
         where user_id = $1 and notified = false and status in ('completed', 'failed')
         returning id, status, result, updated_at`,
      [session.user.id],
    );
    const toNotice = (r: (typeof rows)[number]): BackgroundProcessNotice => ({ id: r.id, result: r.result, updated_at: new Date(r.updated_at).toISOString() });
    return {
      failed: rows.filter((r) => r.status === 'failed').map(toNotice),
      completed: rows.filter((r) => r.status === 'completed').map(toNotice),
    };
  });
}
