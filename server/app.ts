import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { Db } from './db/index';
import type { DirectorConfig } from './config';
import { SESSION_COOKIE, SessionStore } from './auth/sessions';
import { SignInThrottle } from './auth/throttle';
import { requireCsrfToken } from './auth/csrf';
import { HttpError } from './http-errors';
import { registerStaticAssets } from './static-assets';
import { compressJson } from './compress-json';
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
import { labRoutes } from './lab/routes';
import { actionFormRoutes } from './routes/action-form';
import { fileLibraryRoutes } from './routes/file-library';
import { libraryRoutes } from './routes/library';
import { scriptsRoutes } from './routes/scripts';
import { uploadRoutes } from './routes/upload';
import { filtersRoutes } from './routes/filters';
import { topologyRoutes } from './routes/topology';
import { simulationsRoutes } from './routes/simulations';
import { simulationCreateRoutes } from './routes/simulation-create';
import { reportsRoutes } from './routes/reports';
import { monitorsRoutes } from './routes/monitors';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: DirectorConfig;
    sessions: SessionStore;
    throttle: SignInThrottle;
  }
}

/** Paths that may be posted without a session's CSRF token (there is no session yet). */
const CSRF_EXEMPT = new Set(['/users/sign_in.json', '/users/sign_in']);
/** Calls authenticated by a bearer credential and never by the session cookie: the actor API and integration event webhooks. */
const CSRF_EXEMPT_BEARER = /^\/api\/actor\/|^\/integrations\/\d+\/events$/;

/** Background polls must not keep a session alive. */
const NO_TOUCH = new Set(['/users/verify_user_session', '/check_completed_background_processes', '/settings/content_service.json']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function wantsHtml(req: FastifyRequest): boolean {
  if (req.method !== 'GET' || req.headers['x-requested-with']) return false;
  if (/\.(json|csv|js|css|map|png|svg|ico|txt|pcap|pcapng|sh)$/.test(req.url.split('?')[0] ?? '')) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

export interface BuildAppOptions {
  db: Db;
  config: DirectorConfig;
  logger?: boolean;
  throttle?: SignInThrottle;
}

export async function buildApp({ db, config, logger = false, throttle }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, bodyLimit: 1024 * 1024 * 1024, trustProxy: false });
  app.decorate('db', db);
  app.decorate('config', config);
  compressJson(app);
  app.decorate('sessions', new SessionStore(db, config.sessionTimeoutMin * 60_000));
  app.decorate('throttle', throttle ?? new SignInThrottle(db));
  app.decorateRequest('session', null);

  await app.register(cookie);
  await app.register(formbody);

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ error: err.message, ...err.body });
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
    req.log.error(err);
    return reply.status(500).send({ error: 'An internal error occurred. It has been logged.' });
  });

  // Session lookup, CSRF check, and session extension on activity, in that order, for every request.
  app.addHook('onRequest', async (req) => {
    req.session = await app.sessions.find(req.cookies[SESSION_COOKIE]);
  });
  app.addHook('preHandler', async (req) => {
    const urlPath = req.url.split('?')[0] ?? '';
    if (!SAFE_METHODS.has(req.method) && !CSRF_EXEMPT.has(urlPath) && !CSRF_EXEMPT_BEARER.test(urlPath)) {
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

  const staticDir = config.staticDir;
  const indexPath = staticDir ? path.join(staticDir, 'index.html') : undefined;
  const hasSpa = indexPath !== undefined && fs.existsSync(indexPath);
  if (hasSpa && staticDir) await registerStaticAssets(app, staticDir);
  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    if (!hasSpa || !indexPath) return reply.status(503).type('text/plain').send('The workbench is not built. Run `npm run build` and restart the director.');
    const html = fs.readFileSync(indexPath, 'utf8').replace('<meta name="csrf-token" content="" />', `<meta name="csrf-token" content="${req.session?.csrfToken ?? ''}" />`);
    return reply.type('text/html').header('Cache-Control', 'no-store').send(html);
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
