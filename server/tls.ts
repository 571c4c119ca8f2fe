/**
 * HTTPS served by the director: the operator's TLS_CERT/TLS_KEY pair, or with TLS=self-signed a pair
 * generated once with openssl into DATA_DIR/tls (kept, so its fingerprint stays the same across
 * restarts) whose SHA-256 fingerprint the director prints for browsers and actors to check.
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type DirectorConfig } from './config';

export interface TlsPair {
  key: Buffer;
  cert: Buffer;
  /** The certificate's file (for NODE_EXTRA_CA_CERTS of the local actors). */
  certFile: string;
  /** SHA-256 fingerprint, colon-separated hex (as browsers and openssl show it). */
  fingerprint256: string;
  selfSigned: boolean;
}

function readPem(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new ConfigError(`${what} ${file} cannot be read: ${(e as Error).message}`);
  }
}

/** Generates (once) the self-signed pair in `dir`: EC P-256, for localhost and 127.0.0.1 plus `hosts`, valid 825 days. */
export function selfSignedPair(dir: string, hosts: readonly string[] = []): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, 'self-signed-cert.pem');
  const keyFile = path.join(dir, 'self-signed-key.pem');
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) return { certFile, keyFile };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = [...new Set(['localhost', ...hosts.filter((h) => h && h !== '0.0.0.0' && h !== '::')])];
  const san = [...names.map((h) => (/^[\d.]+$|:/.test(h) ? `IP:${h}` : `DNS:${h}`)), 'IP:127.0.0.1'].filter((v, i, a) => a.indexOf(v) === i).join(',');
  const tmpKey = `${keyFile}.${process.pid}.tmp`;
  const tmpCert = `${certFile}.${process.pid}.tmp`;
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '825', '-subj', '/CN=Vigil director (self-signed)', '-addext', `subjectAltName=${san}`, '-keyout', tmpKey, '-out', tmpCert], { stdio: 'pipe' });
  } catch (e) {
    throw new ConfigError(`TLS=self-signed needs openssl to generate the pair: ${(e as Error).message.split('\n')[0]}`);
  }
  fs.chmodSync(tmpKey, 0o600);
  fs.renameSync(tmpKey, keyFile);
  fs.renameSync(tmpCert, certFile);
  return { certFile, keyFile };
}

/** The pair the director serves HTTPS with, or null for plain HTTP. */
export function loadTls(config: Pick<DirectorConfig, 'tls' | 'dataDir' | 'host'>): TlsPair | null {
  if (!config.tls) return null;
  const selfSigned = config.tls === 'self-signed';
  const files = config.tls === 'self-signed' ? selfSignedPair(path.join(config.dataDir, 'tls'), [config.host]) : config.tls;
  const cert = readPem(files.certFile, 'TLS_CERT');
  const key = readPem(files.keyFile, 'TLS_KEY');
  let fingerprint256: string;
  try {
    const x509 = new crypto.X509Certificate(cert);
    if (!x509.checkPrivateKey(crypto.createPrivateKey(key))) throw new Error('the key does not belong to the certificate');
    fingerprint256 = x509.fingerprint256;
  } catch (e) {
    throw new ConfigError(`The TLS pair (${files.certFile}, ${files.keyFile}) is not usable: ${(e as Error).message}`);
  }
  return { key, cert, certFile: files.certFile, fingerprint256, selfSigned };
}
