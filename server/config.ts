import path from 'node:path';

export interface DirectorConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  seed: 'demo' | 'none';
  adminEmail: string;
  adminPassword: string | undefined;
  sessionTimeoutMin: number;
  /** Absolute session lifetime (SESSION_MAX_HOURS, default 12): activity never extends a session past it. */
  sessionMaxHours: number;
  /** Directory of the built SPA; absent in API-only tests. */
  staticDir: string | undefined;
  /**
   * The director's address as actors and users reach it (PUBLIC_URL, e.g. https://vigil.example:8443):
   * written into actor installers and commands. Unset: the address the director listens on.
   */
  publicUrl?: string | undefined;
}

export class ConfigError extends Error {}

function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return n;
}

/** PUBLIC_URL: an http(s) origin (no path, query or credentials), without a trailing slash. */
function publicUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL such as https://vigil.example:8443, got "${raw}"`);
  }
  if (!/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) origin without path, query or credentials, such as https://vigil.example:8443, got "${raw}"`);
  }
  return u.origin;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): DirectorConfig {
  const seed = env.SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new ConfigError(`SEED must be "demo" or "none", got "${seed}"`);
  return {
    port: positiveNumber('PORT', env.PORT, 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    seed,
    adminEmail: env.ADMIN_EMAIL ?? 'admin@example.com',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    sessionTimeoutMin: positiveNumber('SESSION_TIMEOUT_MIN', env.SESSION_TIMEOUT_MIN, 30),
    sessionMaxHours: positiveNumber('SESSION_MAX_HOURS', env.SESSION_MAX_HOURS, 12),
    staticDir: env.STATIC_DIR === 'none' ? undefined : path.resolve(env.STATIC_DIR ?? './dist'),
    publicUrl: publicUrl(env.PUBLIC_URL),
  };
}
