/**
 * The network map's calls (jobs-simulations-network-map.md section 7): the map items
 * (GET /topology/network.json, JOB-094) and each user's saved map layout (JOB-110). Every signed-in
 * user, viewers included, reads the map and saves a layout of their own.
 */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { layoutSchema, type MapLayout, type NetworkMap } from '../../src/api/contracts/topology';
import { readNetworkMap } from '../topology/network-map';

interface LayoutRow {
  mode: MapLayout['mode'];
  positions: MapLayout['positions'];
  updated_at: Date | string;
}

const iso = (t: Date | string) => (t instanceof Date ? t.toISOString() : new Date(t).toISOString());

export async function topologyRoutes(app: FastifyInstance) {
  app.get('/topology/network.json', async (req): Promise<NetworkMap> => {
    requireUser(req);
    return readNetworkMap(app.db);
  });

  // Nothing saved yet answers the default: Standard with no positions.
  app.get('/topology/layout.json', async (req): Promise<MapLayout> => {
    const session = requireUser(req);
    const [row] = await app.db.query<LayoutRow>('select mode, positions, updated_at from network_layouts where user_id = $1', [session.user.id]);
    return row ? { mode: row.mode, positions: row.positions, updated_at: iso(row.updated_at) } : { mode: 'Standard', positions: {}, updated_at: null };
  });

  app.put('/topology/layout.json', async (req): Promise<MapLayout> => {
    const session = requireUser(req);
    const input = validate(layoutSchema, bodyFields(req.body ?? {}));
    const [row] = await app.db.query<LayoutRow>(
      `insert into network_layouts (user_id, mode, positions, updated_at) values ($1, $2, $3::jsonb, now())
       on conflict (user_id) do update set mode = excluded.mode, positions = excluded.positions, updated_at = now()
       returning mode, positions, updated_at`,
      [session.user.id, input.mode, JSON.stringify(input.positions)],
    );
    if (!row) throw new Error('The layout was not stored.');
    return { mode: row.mode, positions: row.positions, updated_at: iso(row.updated_at) };
  });
}
