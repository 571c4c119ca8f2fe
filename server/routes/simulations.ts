import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { bodyFields, notFound, validate } from '../http-errors';
import { normalizeParams } from './library';
import { simulationPreviewQuerySchema, vidAndIdBodySchema, type SimulationPreviewAnswer, type VidAndIdAnswer } from '../../src/api/contracts/simulations';
import { loadSimulationPreview } from '../simulations/preview';

type Ref = { id?: number | undefined; vid?: string | undefined };

/** An id number or a VID, as the vid_and_id calls send it (`type` says which). */
function refOf(body: { id: string | number; type: string }): Ref {
  const raw = String(body.id).trim();
  return body.type === 'id' ? { id: Number(raw) } : { vid: raw };
}

async function lookup(app: FastifyInstance, table: 'simulations' | 'actions', what: string, ref: Ref): Promise<VidAndIdAnswer> {
  if (ref.id !== undefined && !Number.isSafeInteger(ref.id)) throw notFound(`${what} ${ref.id} was not found.`);
  const [row] = ref.id !== undefined
    ? await app.db.query<VidAndIdAnswer>(`select vid, id from ${table} where id = $1`, [ref.id])
    : await app.db.query<VidAndIdAnswer>(`select vid, id from ${table} where upper(vid) = upper($1)`, [ref.vid]);
  if (!row) throw notFound(`${what} ${ref.id ?? ref.vid} was not found.`);
  return { vid: row.vid, id: row.id };
}

/** Simulations (sequences and evaluations): preview and vid/id lookups; see docs/api.md. */
export async function simulationsRoutes(app: FastifyInstance) {
  app.get('/library/simulations.json', async (req): Promise<SimulationPreviewAnswer> => {
    const session = requireUser(req);
    const q = validate(simulationPreviewQuerySchema, normalizeParams(req.query));
    const preview = await loadSimulationPreview(app.db, q, session.user.permissions.includes('simulations.edit'));
    if (!preview) throw notFound(`Simulation ${q.id ?? q.vid} was not found.`);
    return { data: { preview_props: preview } };
  });

  app.post('/simulations/vid_and_id', async (req): Promise<VidAndIdAnswer> => {
    requireUser(req);
    const body = validate(vidAndIdBodySchema, bodyFields(req.body));
    return lookup(app, 'simulations', 'Simulation', refOf(body));
  });

  app.post('/manage_sims/actions/vid_and_id', async (req): Promise<VidAndIdAnswer> => {
    requireUser(req);
    const body = validate(vidAndIdBodySchema, bodyFields(req.body));
    return lookup(app, 'actions', 'Action', refOf(body));
  });
}
