import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../openapi/document';

/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of every registered call (server/openapi/),
 * built once on the first request (all routes are registered by then). Public, like the login page:
 * it holds no data, only the shape of the calls, and client generators fetch it without a session.
 */
export async function openApiRoutes(app: FastifyInstance) {
  let doc: string | null = null;
  app.get('/api/openapi.json', async (_req, reply) => {
    if (!doc) {
      const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
      doc = JSON.stringify(openApiDocument(app.routeList, pkg.version));
    }
    return reply.type('application/json').send(doc);
  });
}
