/**
 * POST /tags/{taggable}/{id}/add.json and /remove.json (MON-133: the spec names them {new tag path}
 * and {remove tag path}; these paths are ours, docs/api.md). Form or JSON field `tag`; tags.edit and
 * the CSRF token are required.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { TAGGABLES, tagChangeSchema, type Taggable, type TagChangeReply } from '../../src/api/contracts/tags';
import { addTag, removeTag } from '../admin/tags';

const params = yup.object({
  taggable: yup.string<Taggable>().oneOf([...TAGGABLES], `What carries tags must be one of ${TAGGABLES.join(', ')}`).required(),
  id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required(),
});

export async function tagsRoutes(app: FastifyInstance) {
  for (const op of ['add', 'remove'] as const) {
    app.post(`/tags/:taggable/:id/${op}.json`, async (req): Promise<TagChangeReply> => {
      requirePermission(req, 'tags.edit');
      const { taggable, id } = validate(params, req.params);
      const { tag } = validate(tagChangeSchema, bodyFields(req.body));
      return op === 'add' ? addTag(app.db, taggable, id, tag) : removeTag(app.db, taggable, id, tag);
    });
  }
}
