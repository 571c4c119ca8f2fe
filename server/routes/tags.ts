/**
 * GET /tags/options.json?tag_type={type}&taggableType={taggable} (MON-132 {tag options path}; answer
 * data[tagType]), signed in. POST /tags/{taggable}/{id}/add.json and /remove.json (MON-133: the spec names them {new tag path}
 * and {remove tag path}; these paths are ours, docs/api.md). Form or JSON field `tag`; tags.edit and
 * the CSRF token are required.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { TAGGABLES, tagChangeSchema, tagOptionsQuerySchema, type Taggable, type TagChangeReply, type TagOptionsAnswer } from '../../src/api/contracts/tags';
import { addTag, removeTag, tagOptions } from '../admin/tags';

const params = yup.object({
  taggable: yup.string<Taggable>().oneOf([...TAGGABLES], `What carries tags must be one of ${TAGGABLES.join(', ')}`).required(),
  id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required(),
});

export async function tagsRoutes(app: FastifyInstance) {
  app.get('/tags/options.json', async (req): Promise<TagOptionsAnswer> => {
    requireUser(req);
    const q = validate(tagOptionsQuerySchema, req.query ?? {});
    return tagOptions(app.db, q.tag_type, q.taggableType);
  });

  for (const op of ['add', 'remove'] as const) {
    app.post(`/tags/:taggable/:id/${op}.json`, async (req): Promise<TagChangeReply> => {
      requirePermission(req, 'tags.edit');
      const { taggable, id } = validate(params, req.params);
      const { tag } = validate(tagChangeSchema, bodyFields(req.body));
      return op === 'add' ? addTag(app.db, taggable, id, tag) : removeTag(app.db, taggable, id, tag);
    });
  }
}
