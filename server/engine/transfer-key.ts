/**
 * file_transfer over scp or through an ssh tunnel: the signed work of both actors carries a one-time
 * client key (details.ssh_key). The target's own sshd accepts only that key, for this one action.
 */
import crypto from 'node:crypto';

export function withTransferKey(details: Record<string, unknown>): Record<string, unknown> {
  if (details.app_layer !== 'scp' && details.tunnel_protocol !== 'ssh') return details;
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return { ...details, ssh_key: privateKey };
}
