/**
 * Secrets kept at rest (run-as profile passwords): AES-256-GCM with a key from the director's
 * environment. VIGIL_SECRET_KEY (any text; hashed to 32 bytes) when set; otherwise a random key
 * made once in DATA_DIR/secret.key (mode 0600), so a newcomer's director works without setup and the
 * database alone never holds what decrypts it. Stored form: v1:<iv>:<tag>:<ciphertext>, base64url.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HttpError } from '../http-errors';

const KEY_FILE = 'secret.key';

export function secretKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env.VIGIL_SECRET_KEY;
  if (fromEnv) return crypto.createHash('sha256').update(fromEnv).digest();
  const file = path.join(dataDir, KEY_FILE);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = crypto.randomBytes(32);
    // 'wx': two directors racing to make it cannot overwrite each other's key.
    try {
      fs.writeFileSync(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' });
      return key;
    } catch {
      return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    }
  }
}

export function seal(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
}

/** The plain text, or throws when the key is not the one it was sealed with. */
export function open(key: Buffer, sealed: string): string {
  const [v, iv, tag, body] = sealed.split(':');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed secret.');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** `plain` sealed with the director's key; 503 with the reason when the director cannot keep secrets. */
export function sealWithDirectorKey(dataDir: string, plain: string): string {
  let key: Buffer;
  try {
    key = secretKey(dataDir);
  } catch (e) {
    throw new HttpError(503, `The director cannot keep secrets: set VIGIL_SECRET_KEY or make DATA_DIR writable (${(e as Error).message}).`);
  }
  return seal(key, plain);
}
