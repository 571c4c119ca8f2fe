import crypto from 'node:crypto';
import type { Db } from '../db/index';

export const newSecret = (prefix: string) => `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
export const hashSecret = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

export interface SigningKeys {
  privateKey: crypto.KeyObject;
  publicPem: string;
}

const cache = new WeakMap<Db, SigningKeys>();

/** The director's Ed25519 work-signing key, made on first use and kept in engine_keys. */
export async function signingKeys(db: Db): Promise<SigningKeys> {
  const hit = cache.get(db);
  if (hit) return hit;
  let [row] = await db.query<{ private_pem: string; public_pem: string }>('select private_pem, public_pem from engine_keys where id = 1');
  if (!row) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
    const pair = { private_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), public_pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
    await db.query('insert into engine_keys (id, private_pem, public_pem) values (1, $1, $2) on conflict (id) do nothing', [pair.private_pem, pair.public_pem]);
    [row] = await db.query<{ private_pem: string; public_pem: string }>('select private_pem, public_pem from engine_keys where id = 1');
  }
  if (!row) throw new Error('engine_keys has no key');
  const keys = { privateKey: crypto.createPrivateKey(row.private_pem), publicPem: row.public_pem };
  cache.set(db, keys);
  return keys;
}

export function sign(keys: SigningKeys, payload: string): string {
  return crypto.sign(null, Buffer.from(payload), keys.privateKey).toString('base64');
}

/** A bulk registration token; only its hash is stored. */
export async function createBulkToken(db: Db, opts: { name?: string; hours?: number; userId?: number | null } = {}): Promise<{ id: number; token: string; expires_at: string }> {
  const token = newSecret('vbt');
  const [row] = await db.query<{ id: number; expires_at: string }>(
    `insert into actor_bulk_tokens (name, token_hash, expires_at, created_by) values ($1, $2, now() + ($3::text || ' hours')::interval, $4)
     returning id, expires_at::text`,
    [opts.name ?? '', hashSecret(token), String(opts.hours ?? 24), opts.userId ?? null],
  );
  if (!row) throw new Error('insert returned no row');
  return { id: row.id, token, expires_at: row.expires_at };
}
