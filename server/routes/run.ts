/**
 * Running jobs: the Run All Actions form (attack_node_id_1, target_node_id_1, force_unlock), or a run
 * aimed step by step (attack_node_id_{n}, target_node_id_{n}), posted for an action, a sequence or an
 * evaluation creates a job the engine runs, each step between its own pair of actors.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, notFound, validate } from '../http-errors';
import { runSchema, stepPairs, type RunActor, type RunAnswer } from '../../src/api/contracts/engine';
import { createJob, type JobKind } from '../engine/jobs';
import { engineFor } from '../engine/engine';
import { presenceSql } from '../actors/presence';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });
const KINDS: Record<string, JobKind> = { actions: 'action', sequences: 'sequence', evaluations: 'evaluation' };

export async function runRoutes(app: FastifyInstance) {
  const engine = engineFor(app.db);

  app.get('/run/actors.json', async (req): Promise<{ data: RunActor[] }> => {
    requireUser(req);
    const presence = presenceSql(app.db);
    const rows = await app.db.query<RunActor & { capabilities: { types?: string[] } }>(
      `select n.id, n.name, ${presence.status} as status, n.sim_address, n.security_zone_id, z.name as zone_name, n.capabilities
         from nodes n left join zones z on z.id = n.security_zone_id
        where n.token_hash is not null order by ${presence.status} = 'online' desc, n.name, n.id`,
    );
    return { data: rows.map((r) => ({ ...r, capabilities: r.capabilities.types ?? [] })) };
  });

  // A job's progress as the engine sees it (for scripts and tests; the Jobs panes have the full views).
  app.get('/run/jobs/:id/status.json', async (req) => {
    requireUser(req);
    const { id } = validate(idParam, req.params);
    const [job] = await app.db.query<{ id: number; name: string; status: string; progress: number; status_reason: string | null }>(
      'select id, name, status, progress, status_reason from jobs where id = $1',
      [id],
    );
    if (!job) throw notFound(`Job ${id} does not exist.`);
    const actions = await app.db.query(
      `select ja.id, ja.name, ja.action_type, ja.status, ja.blocked, ja.blocked_msg, ja.events, ja.alerted, s.group_order
         from job_actions ja join job_steps s on s.id = ja.job_step_id where ja.job_id = $1 order by s.group_order, ja.position, ja.id`,
      [id],
    );
    return { ...job, actions };
  });

  for (const [segment, kind] of Object.entries(KINDS)) {
    app.post(`/run/${segment}/:id.json`, async (req, reply): Promise<RunAnswer> => {
      const session = requirePermission(req, 'jobs.run');
      const { id } = validate(idParam, req.params);
      const input = validate(runSchema, bodyFields(req.body));
      const job = await createJob(app.db, { kind, id, pairs: stepPairs(input), userId: session.user.id, forceUnlock: input.force_unlock });
      engine.kick();
      reply.status(201);
      return { ...job, url: `/jobs/${job.job_id}` };
    });
  }
}
