import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The built SPA (`dist/`): assets served from their precompressed `.br`/`.gz` copies (written by
 * build-tools/precompress.ts) with `Content-Encoding` and `Vary: Accept-Encoding`, cached for a year
 * (their names carry a hash). Source maps are answered 404 unless VIGIL_SOURCEMAPS=1 (development).
 */
export async function registerStaticAssets(app: FastifyInstance, root: string): Promise<void> {
  const serveMaps = process.env.VIGIL_SOURCEMAPS === '1';
  if (!serveMaps) {
    app.addHook('onRequest', async (req, reply) => {
      if ((req.url.split('?')[0] ?? '').endsWith('.map')) return reply.status(404).send({ error: 'Source maps are not served' });
      return undefined;
    });
  }
  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    preCompressed: true,
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
}
