import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { validate } from '../http-errors';
import { search } from '../search/service';
import { searchQuerySchema, type SearchAnswer } from '../../src/api/contracts/search';

/** Quick open for the command palette (docs/api.md, "Search"): one call finds any object by name, VID or id. */
export async function searchRoutes(app: FastifyInstance) {
  app.get('/search.json', async (req): Promise<SearchAnswer> => {
    const session = requireUser(req);
    const { q, limit, kind } = validate(searchQuerySchema, req.query ?? {});
    return { q, results: await search(app.db, app.library, session.user, q, limit, kind) };
  });
}
