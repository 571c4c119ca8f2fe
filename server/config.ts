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
   * TRUST_PROXY: whether (and which) proxies' X-Forwarded-For/-Proto are believed, so a director behind a
   * TLS-terminating proxy knows the request was HTTPS (Secure, __Host- cookie) and who sent it (throttling).
   * false (default), true (any), a hop count, or a comma-separated list of addresses/CIDRs.
   */
  trustProxy?: boolean | number | string;
  /** HTTPS served by the director itself: TLS_CERT + TLS_KEY files, or TLS=self-signed (generated once into DATA_DIR/tls). */
  tls?: { certFile: string; keyFile: string } | 'self-signed';
  /**
   * The director's address as actors and users reach it (PUBLIC_URL, e.g. https://vigil.example:8443):
   * written into actor installers and commands. Unset: the address the director listens on.
   */
  publicUrl?: string | undefined;
  /** SAAS=1: a hosted deployment; the integrations menu hides remote-only integrations (JOB-029). */
  saas?: boolean;
  /** ACTIONS_DISABLED=1: this deployment runs no actions; the integrations menu is disabled (JOB-029). */
  actionsDisabled?: boolean;
  /**
   * SHARED_FILES: 'database' also keeps uploaded files (PCAP captures, file-library contents) in the
   * database, so every director of one database sees them (server/storage/shared-files.ts); 'local'
   * keeps them in DATA_DIR only. Unset: 'database' on PostgreSQL, 'local' on PGlite.
   */
  sharedFiles?: 'database' | 'local' | undefined;
}

export class ConfigError extends Error {}

function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return n;
}

function trustProxy(raw: string | undefined): boolean | number | string {
  const v = (raw ?? '').trim();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  if (/^[0-9a-fA-F.:/,\s]+$/.test(v)) return v;
  throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or a list of proxy addresses (CIDR allowed), got "${v}"`);
}

function tlsOf(env: NodeJS.ProcessEnv): DirectorConfig['tls'] {
  const cert = env.TLS_CERT || undefined;
  const key = env.TLS_KEY || undefined;
  const mode = env.TLS || undefined;
  if (mode !== undefined && mode !== 'self-signed') throw new ConfigError(`TLS must be "self-signed" (or unset, with TLS_CERT and TLS_KEY for your own pair), got "${mode}"`);
  if (!!cert !== !!key) throw new ConfigError('TLS_CERT and TLS_KEY go together: set both (PEM files) or neither');
  if (cert && key) {
    if (mode) throw new ConfigError('TLS=self-signed and TLS_CERT/TLS_KEY exclude each other');
    return { certFile: path.resolve(cert), keyFile: path.resolve(key) };
  }
  return mode;
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

function flag(name: string, raw: string | undefined): boolean {
  const v = (raw ?? '').trim();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${v}"`);
}

function sharedFiles(raw: string | undefined): DirectorConfig['sharedFiles'] {
  const v = (raw ?? '').trim();
  if (v === '') return undefined;
  if (v === 'database' || v === 'local') return v;
  throw new ConfigError(`SHARED_FILES must be "database" or "local", got "${v}"`);
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
    trustProxy: trustProxy(env.TRUST_PROXY),
    tls: tlsOf(env),
    publicUrl: publicUrl(env.PUBLIC_URL),
    saas: flag('SAAS', env.SAAS),
    actionsDisabled: flag('ACTIONS_DISABLED', env.ACTIONS_DISABLED),
    sharedFiles: sharedFiles(env.SHARED_FILES),
  };
}
