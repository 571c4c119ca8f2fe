import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { Db } from './db/index';
import type { DirectorConfig } from './config';
import { SessionStore, sessionCookie } from './auth/sessions';
import { SignInThrottle } from './auth/throttle';
import { requireCsrfToken } from './auth/csrf';
import { HttpError } from './http-errors';
import { registerStaticAssets } from './static-assets';
import { renderIndex, spaTemplate } from './spa-index';
import { environmentOf } from './environment';
import type { SessionStateAnswer } from '../src/api/contracts/session';
import { compressJson } from './compress-json';
import { registerInputGuards } from './input-guards';
import { usersRoutes } from './routes/users';
import { environmentRoutes } from './routes/environment';
import { backgroundRoutes } from './routes/background';
import { settingsRoutes } from './routes/settings';
import { adminUsersRoutes } from './routes/admin-users';
import { jobsRoutes } from './routes/jobs';
import { actorsRoutes } from './routes/actors';
import { bulkTokensRoutes } from './routes/bulk-tokens';
import { actorFilesRoutes } from './routes/actor-files';
import { runRoutes } from './routes/run';
import { integrationsEventsRoutes } from './routes/integrations-events';
import { integrationsRoutes } from './routes/integrations';
import { actorDependenciesRoutes } from './routes/actor-dependencies';
import { labRoutes } from './lab/routes';
import { actionFormRoutes } from './routes/action-form';
import { fileLibraryRoutes } from './routes/file-library';
import { libraryRoutes } from './routes/library';
import { LibraryService } from './library/library-service';
import { scriptsRoutes } from './routes/scripts';
import { uploadRoutes } from './routes/upload';
import { filtersRoutes } from './routes/filters';
import { topologyRoutes } from './routes/topology';
import { simulationsRoutes } from './routes/simulations';
import { simulationCreateRoutes } from './routes/simulation-create';
import { reportsRoutes } from './routes/reports';
import { monitorsRoutes } from './routes/monitors';
import { runAsProfilesRoutes } from './routes/run-as-profiles';
import { threatIntelRoutes } from './routes/threat-intel';
import { nodeEditRoutes } from './routes/node-edit';
import { operationalStatusRoutes } from './routes/operational-status';
import { tagsRoutes } from './routes/tags';
import { searchRoutes } from './routes/search';
import { openApiRoutes } from './routes/openapi';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: DirectorConfig;
    /** The Action library's in-memory index (server/library): the library lists and quick open read it. */
    library: LibraryService;
    sessions: SessionStore;
    throttle: SignInThrottle;
    /** Every registered route (method and URL pattern), in registration order: the route matrix tests walk it. */
    routeList: { method: string; url: string }[];
  }
}

/** Paths that may be posted without a session's CSRF token (there is no session yet). */
const CSRF_EXEMPT = new Set(['/users/sign_in.json', '/users/sign_in']);
/** Calls authenticated by a bearer credential and never by the session cookie: the actor API and integration event webhooks. */
const CSRF_EXEMPT_BEARER = /^\/api\/actor\/|^\/integrations\/[^/]+\/events$/;

/** Background polls must not keep a session alive. */
const NO_TOUCH = new Set(['/users/verify_user_session', '/check_completed_background_processes', '/settings/content_service.json']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const needsCsrf = (method: string, urlPath: string) => !SAFE_METHODS.has(method) && !CSRF_EXEMPT.has(urlPath) && !CSRF_EXEMPT_BEARER.test(urlPath);

function wantsHtml(req: FastifyRequest): boolean {
  if (req.method !== 'GET' || req.headers['x-requested-with']) return false;
  if (/\.(json|csv|js|css|map|png|svg|ico|txt|pcap|pcapng|sh)$/.test(req.url.split('?')[0] ?? '')) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

/** The workbench's Content-Security-Policy: scripts only from the director itself (no inline script), never framed. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface BuildAppOptions {
  db: Db;
  config: DirectorConfig;
  /** Log every request at info level (LOG_REQUESTS=1); errors are always logged. */
  logger?: boolean;
  /** Where the structured (JSON) log goes; stdout by default. Tests pass a collector. */
  logStream?: { write(line: string): void };
  throttle?: SignInThrottle;
  /** Serve HTTPS with this pair (server/tls.ts loads it from TLS_CERT/TLS_KEY or TLS=self-signed). */
  https?: { key: Buffer | string; cert: Buffer | string };
}

/** Default body limit for every route that does not set its own: JSON and forms are small. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function buildApp({ db, config, logger = false, logStream, throttle, https }: BuildAppOptions): Promise<FastifyInstance> {
  // With `https` Fastify serves TLS; its instance type differs only in the server's, which no route touches.
  const app = (Fastify as (opts: object) => FastifyInstance)({
    ...(https ? { https: { key: https.key, cert: https.cert, minVersion: 'TLSv1.2' } } : {}),
    logger: { level: logger ? 'info' : 'error', ...(logStream ? { stream: logStream } : {}) },
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Behind a TLS-terminating proxy (TRUST_PROXY), X-Forwarded-Proto/-For say the request was HTTPS and who sent it.
    trustProxy: config.trustProxy ?? false,
    // Request ids are the director's own (a client cannot choose what the log says); every answer carries it.
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('library', new LibraryService(db, (e) => app.log.error(e)));
  compressJson(app);
  app.decorate('sessions', new SessionStore(db, config.sessionTimeoutMin * 60_000, config.sessionMaxHours * 3_600_000));
  app.decorate('throttle', throttle ?? new SignInThrottle(db));
  app.decorateRequest('session', null);
  const routeList: { method: string; url: string }[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push({ method, url: route.url });
  });

  await app.register(cookie);
  await app.register(formbody);

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ error: err.message, ...err.body });
    // busboy's refusals of a malformed multipart body (no boundary, bad headers) carry no status.
    if (!err.statusCode && /^(Multipart|Malformed part header|Unexpected end of form)/.test(err.message)) {
      return reply.status(400).send({ error: `The multipart form data is malformed: ${err.message}.` });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type.'
            : err.message;
      return reply.status(status).send({ error: message });
    }
    req.log.error({ err, reqId: req.id, method: req.method, url: req.url.split('?')[0] }, 'request failed');
    return reply.status(status >= 500 ? status : 500).send({ error: `An internal error occurred. It has been logged with request id ${req.id}.`, request_id: req.id });
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
    if (req.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000');
  });

  // Session lookup, CSRF check, and session extension on activity, in that order, for every request.
  // The CSRF check runs before the body is read whenever it can decide (no session, or a token header):
  // an anonymous or forged request never makes the director read, buffer or parse its body. Only a
  // session holder posting a form (token in the `authenticity_token` field) has its body read first,
  // within the route's limits.
  app.addHook('onRequest', async (req) => {
    // Over HTTPS only the __Host- cookie counts: a cookie planted over plain HTTP or by a sibling domain is ignored.
    req.session = await app.sessions.find(req.cookies[sessionCookie(req.protocol === 'https').name]);
    const urlPath = req.url.split('?')[0] ?? '';
    if (!needsCsrf(req.method, urlPath)) return;
    const harmless = urlPath === '/users/sign_out' && !req.session;
    const header = req.headers['x-csrf-token'];
    if (harmless) return;
    // No session: refused now. A token header: checked now. No header: the form's field is checked once the body is read.
    if (!req.session || header !== undefined) requireCsrfToken(header, req.session?.csrfToken);
  });
  app.addHook('preHandler', async (req) => {
    const urlPath = req.url.split('?')[0] ?? '';
    if (needsCsrf(req.method, urlPath)) {
      const body = req.body as Record<string, unknown> | undefined;
      const sent = req.headers['x-csrf-token'] ?? (body && typeof body === 'object' ? body.authenticity_token : undefined);
      // Signing out without a live session changes nothing, so it needs no token.
      const harmless = urlPath === '/users/sign_out' && !req.session;
      if (!harmless) requireCsrfToken(sent, req.session?.csrfToken);
    }
    if (req.session && !NO_TOUCH.has(urlPath) && req.headers['x-background-task'] !== 'true') {
      await app.sessions.touch(req.session);
    }
  });

  registerInputGuards(app);
  await app.register(usersRoutes);
  await app.register(environmentRoutes);
  await app.register(backgroundRoutes);
  await app.register(settingsRoutes);
  await app.register(adminUsersRoutes);
  await app.register(jobsRoutes);
  await app.register(actorsRoutes);
  await app.register(bulkTokensRoutes);
  await app.register(actorFilesRoutes);
  await app.register(runRoutes);
  await app.register(integrationsEventsRoutes);
  await app.register(integrationsRoutes);
  await app.register(labRoutes);
  await app.register(actionFormRoutes);
  await app.register(fileLibraryRoutes);
  await app.register(libraryRoutes);
  await app.register(scriptsRoutes);
  await app.register(uploadRoutes);
  await app.register(filtersRoutes);
  await app.register(topologyRoutes);
  await app.register(simulationsRoutes);
  await app.register(simulationCreateRoutes);
  await app.register(reportsRoutes);
  await app.register(monitorsRoutes);
  await app.register(runAsProfilesRoutes);
  await app.register(threatIntelRoutes);
  await app.register(nodeEditRoutes);
  await app.register(actorDependenciesRoutes);
  await app.register(operationalStatusRoutes);
  await app.register(tagsRoutes);
  await app.register(searchRoutes);
  await app.register(openApiRoutes);

  const staticDir = config.staticDir;
  const indexPath = staticDir ? path.join(staticDir, 'index.html') : undefined;
  const hasSpa = indexPath !== undefined && fs.existsSync(indexPath);
  if (hasSpa && staticDir) await registerStaticAssets(app, staticDir);
  const spa = hasSpa && staticDir ? spaTemplate(staticDir) : undefined;
  // Signed in, the page carries the session (server/spa-index.ts): never stored. Signed out, it may be
  // kept but is asked again each time (it names the current build's files).
  const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!spa) return reply.status(503).type('text/plain').send('The workbench is not built. Run `npm run build` and restart the director.');
    const { template, preloads } = spa();
    const state: SessionStateAnswer = req.session ? { signed_in: true, environment: await environmentOf(app.db, req.session, config.sessionTimeoutMin) } : { signed_in: false };
    return reply
      .type('text/html')
      .header('Cache-Control', state.signed_in ? 'no-store' : 'no-cache')
      .header('Vary', 'Cookie')
      .header('Content-Security-Policy', CSP)
      .send(renderIndex(template, state, preloads));
  };
  app.get('/', sendIndex);

  app.setNotFoundHandler((req, reply) => {
    if (wantsHtml(req)) return sendIndex(req, reply);
    return reply.status(404).send({ error: `No route for ${req.method} ${req.url.split('?')[0]}` });
  });

  // A spec route (e.g. /jobs/12) is both a page of the workbench and, for calls, a director path.
  app.addHook('onRequest', async (req, reply) => {
    const p = req.url.split('?')[0] ?? '';
    if (wantsHtml(req) && p !== '/' && !p.startsWith('/assets/')) return sendIndex(req, reply);
    return undefined;
  });

  return app;
}
