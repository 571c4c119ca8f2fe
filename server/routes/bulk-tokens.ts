/**
 * The Actors pane's calls (monitors-actors-reporting.md sections 2 and 7): the table source, bulk
 * registration tokens (create, pending actors, CSV, clear), clearing a pending actor, Register Push
 * and the actor installers. Reading needs a session; creating and clearing need actors.manage.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, notFound, validate } from '../http-errors';
import { createBulkToken } from '../engine/secrets';
import { csvLine } from '../jobs/csv';
import { iso } from '../jobs/list-query';
import { TOKEN_PLACEHOLDER, actorCommand, bulkTokenCreateSchema, type ActorTables, type BulkTokenRow, type InstallerOs, type RegisterPush } from '../../src/api/contracts/actors';
import { listActors, listTokens, pendingNodes, tokenActors, PENDING } from '../actors/bulk-tokens';
import { directorUrl, installerOptions, installerScript, scriptFile, scriptOses } from '../actors/installer';

function parseId(raw: unknown, what: string): number {
  const s = typeof raw === 'string' ? raw : '';
  if (!/^\d{1,9}$/.test(s) || Number(s) <= 0) throw badRequest(`"${s}" is not ${what} id.`);
  return Number(s);
}

async function tokenOf(app: FastifyInstance, req: FastifyRequest, raw: unknown): Promise<BulkTokenRow> {
  const id = parseId(raw, 'a bulk token');
  const canManage = !!req.session?.user.permissions.includes('actors.manage');
  const [row] = await listTokens(app.db, canManage, id);
  if (!row) throw notFound(`Bulk token ${id} does not exist.`);
  return row;
}

const CSV = { separator: 'comma', quotes: 'double' } as const;
const CSV_HEADER = ['Token Id', 'Token Name', 'Token Status', 'Created', 'Expires', 'Actor Id', 'Actor Name', 'Actor Status', 'Pending', 'Registered', 'Last Heartbeat', 'OS', 'Address', 'Details'];

export async function bulkTokensRoutes(app: FastifyInstance) {
  app.get('/actors/tables.json', async (req): Promise<ActorTables> => {
    const session = requireUser(req);
    const [bulk, nodes] = await Promise.all([listTokens(app.db, session.user.permissions.includes('actors.manage')), listActors(app.db)]);
    return { bulk: { data: bulk }, nodes: { data: nodes } };
  });

  // An operator with actors.manage creates a token; its secret is shown once (the hash is stored).
  app.post('/bulk_tokens.json', async (req) => {
    const session = requirePermission(req, 'actors.manage');
    const input = validate(bulkTokenCreateSchema, bodyFields(req.body ?? {}));
    return createBulkToken(app.db, { name: input.name, hours: input.hours, userId: session.user.id });
  });

  app.get<{ Params: { id: string } }>('/bulk_pending_nodes/:id', async (req) => {
    requireUser(req);
    const token = await tokenOf(app, req, req.params.id);
    return pendingNodes(app.db, token.id);
  });

  app.get<{ Params: { id: string } }>('/csv_bulk_token/:id', async (req, reply) => {
    requireUser(req);
    const t = await tokenOf(app, req, req.params.id);
    const actors = await tokenActors(app.db, t.id);
    const head = [t.id, t.name, t.status, t.created_at, t.expires_at];
    const lines = actors.length
      ? actors.map((a) => csvLine([...head, a.id, a.name, a.status, a.pending ? 'Yes' : 'No', iso(a.created_at), iso(a.last_heartbeat_at), a.os, a.sim_address, a.status_details], CSV))
      : [csvLine(head, CSV)];
    const filename = `bulk-token-${t.id}.csv`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(`\uFEFF${csvLine(CSV_HEADER, CSV)}${lines.join('')}`);
  });

  // Clear: the token is deleted, so registering with it is refused from then on.
  const clearToken = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    requirePermission(req, 'actors.manage');
    const id = parseId(req.params.id, 'a bulk token');
    const [gone] = await app.db.query<{ id: number; name: string }>('delete from actor_bulk_tokens where id = $1 returning id, name', [id]);
    if (!gone) throw notFound(`Bulk token ${id} does not exist.`);
    return { id: gone.id, message: `Bulk token ${gone.name || gone.id} was cleared.` };
  };
  app.delete<{ Params: { id: string } }>('/delete_bulk_token/:id', clearToken);
  app.post<{ Params: { id: string } }>('/delete_bulk_token/:id', clearToken);

  const clearPending = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    requirePermission(req, 'actors.manage');
    const id = parseId(req.params.id, 'an actor');
    return app.db.transaction(async (tx) => {
      const [n] = await tx.query<{ id: number; name: string; bulk: boolean; pending: boolean }>(
        `select n.id, n.name, n.capabilities ? 'bulk_token_id' as bulk, ${PENDING} as pending from nodes n where n.id = $1 for update`,
        [id],
      );
      if (!n) throw notFound(`Actor ${id} does not exist.`);
      if (!n.bulk || !n.pending) throw new HttpError(409, `Actor ${n.name} is not pending: only an actor that registered with a bulk token and has not called in since can be cleared.`);
      await tx.query('delete from nodes where id = $1', [id]);
      return { id, message: `Pending actor ${n.name} was cleared.` };
    });
  };
  app.delete<{ Params: { id: string } }>('/nodes/:id/destroy_pending.js', clearPending);
  app.post<{ Params: { id: string } }>('/nodes/:id/destroy_pending.js', clearPending);

  app.get<{ Querystring: Record<string, unknown> }>('/nodes/new.js', async (req): Promise<{ data: RegisterPush }> => {
    requireUser(req);
    if (req.query.node_type !== 'bulk') throw badRequest('node_type must be bulk.');
    const t = await tokenOf(app, req, req.query.id);
    const director = directorUrl(req);
    return {
      data: {
        bulk_token_id: t.id,
        name: t.name,
        status: t.status,
        director,
        command: actorCommand(director, TOKEN_PLACEHOLDER),
        notes: [
          `Replace ${TOKEN_PLACEHOLDER} with the token's secret, shown once when it was created (the director keeps only its hash), and <ACTOR_IP> with the address the actor is reached at.`,
          'Run the command in a Vigil checkout with its dependencies installed (npm ci) and Node.js 20.19 or newer; the actor registers, then keeps calling in.',
        ],
      },
    };
  });

  app.get<{ Params: { id: string } }>('/actor_installer/:id/options.json', async (req) => {
    requireUser(req);
    const t = await tokenOf(app, req, req.params.id);
    return { data: installerOptions(directorUrl(req), t.id) };
  });

  // The script holds no secret, so a machine can fetch it without a session (curl ... | sh).
  app.get<{ Params: { id: string; file: string }; Querystring: Record<string, unknown> }>('/actor_installer/:id/:file', async (req, reply: FastifyReply) => {
    const id = parseId(req.params.id, 'a bulk token');
    const m = /^(windows|macos|linux)\.(sh|exe|app)$/.exec(req.params.file);
    if (!m) throw notFound(`No installer ${req.params.file}: use linux.sh or macos.sh.`);
    const os = m[1] as InstallerOs;
    if (m[2] !== 'sh' || !scriptOses.includes(os)) throw notFound(`No .${m[2]} installer for ${os}: this director cannot build one. Use linux.sh or macos.sh, or run the actor with Node.js.`);
    const secure = req.query.secure;
    if (secure !== undefined && secure !== '1' && secure !== '0') throw badRequest('secure must be 1 or 0.');
    const [t] = await app.db.query<{ id: number; expired: boolean }>('select id, expires_at < now() as expired from actor_bulk_tokens where id = $1', [id]);
    if (!t) throw notFound(`Bulk token ${id} does not exist.`);
    if (t.expired) throw new HttpError(409, `Bulk token ${id} has expired: actors cannot register with it.`);
    return reply
      .header('content-type', 'text/x-shellscript; charset=utf-8')
      .header('content-disposition', `attachment; filename="${scriptFile(os)}"`)
      .header('cache-control', 'no-store')
      .send(installerScript({ os, director: directorUrl(req), tokenId: id, secure: secure === '1' }));
  });
}
