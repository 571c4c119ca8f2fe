/**
 * File-library bytes for actors: `POST {ACTOR_API}/work/{id}/files/{file_id}` (bearer credential,
 * body { session }) answers the entry's bytes, only to the actor holding that open work, only for a
 * file the work's signed payload names, and only up to MAX_WORK_FILE_BYTES.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { HttpError, validate } from '../http-errors';
import { ACTOR_API, MAX_WORK_FILE_BYTES, heartbeatSchema } from '../../src/api/contracts/engine';
import { engineFor } from '../engine/engine';
import { ownWork, workFileContent } from '../actors/service';
import { actorOf } from './actors';
import { sharedFilesOf } from '../storage/shared-files';

const params = yup.object({
  id: yup.number().typeError('id must be a number').integer().positive().required(),
  fileId: yup.number().typeError('file id must be a number').integer().positive().required(),
});

export async function actorFilesRoutes(app: FastifyInstance) {
  const engine = engineFor(app.db);
  app.post(`${ACTOR_API}/work/:id/files/:fileId`, (req, reply) =>
    engine.track(async () => {
      const node = await actorOf(app, req);
      const { id, fileId } = validate(params, req.params);
      const { session } = validate(heartbeatSchema, req.body ?? {});
      const w = await ownWork(app.db, id, node, session);
      if (w.status !== 'claimed' && w.status !== 'ready') throw new HttpError(409, `Work ${id} is no longer open (${w.status}).`);
      const content = await workFileContent(app.db, sharedFilesOf(app.db, app.config), id, fileId);
      if (content.size > MAX_WORK_FILE_BYTES) {
        if (!Buffer.isBuffer(content.body)) content.body.destroy();
        throw new HttpError(413, `File ${fileId} is larger than ${MAX_WORK_FILE_BYTES} bytes.`);
      }
      return reply.type('application/octet-stream').header('content-length', content.size).send(content.body);
    }),
  );
}
