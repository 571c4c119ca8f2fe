/**
 * Actor edit (/topology/nodes/{id}/edit, JOB-005): the spec shows the link only, so these calls are
 * ours (docs/api.md). Reading needs a session; changes need actors.manage.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { nodeUpdateSchema, type NodeDetail, type NodeEditOptions } from '../../src/api/contracts/node-edit';
import { getNode, nodeEditOptions, updateNode } from '../admin/node-edit';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required() });

export async function nodeEditRoutes(app: FastifyInstance) {
  app.get('/topology/nodes/:id.json', async (req): Promise<{ data: NodeDetail; options: NodeEditOptions }> => {
    requireUser(req);
    const { id } = validate(idParam, req.params);
    const [data, options] = await Promise.all([getNode(app.db, id), nodeEditOptions(app.db)]);
    return { data, options };
  });

  app.patch('/topology/nodes/:id.json', async (req): Promise<{ data: NodeDetail }> => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    const input = validate(nodeUpdateSchema, bodyFields(req.body));
    return { data: await updateNode(app.db, id, input) };
  });
}
