/**
 * The file_transfer parts that use OpenSSH or DNS: scp (the target's own sshd, the source's scp), the
 * target side of an ssh tunnel (an sshd allowing forwarding to this actor only) and of a dns tunnel.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { bindUdp } from '../net-util';
import { Incompatible, type PerformOptions, type TargetHandle } from './contract';
import { tunnelServer } from './dns-tunnel';
import { servePort } from './serve-port';
import { openSshTunnel, scpDownload, scpUpload, type SshPeer, type Tunnel } from './ssh-client';
import { startSshd, type Sshd, type SshdMode } from './sshd';
import { DNS_PORT, MAX_WIRE_BYTES, SSH_PORT, type Plan } from './transfer-plan';

type Digest = (p: Plan, arrived: Buffer) => Promise<{ sha256: string; bytes: number; decode_error?: string }>;
const TRANSFER_TIMEOUT_MS = 60_000;

/** Two target handles as one (the app server and the ssh tunnel's sshd). */
export function mergeHandles(a: TargetHandle, b: TargetHandle): TargetHandle {
  return {
    port_map: { ...a.port_map, ...b.port_map },
    port_failures: { ...a.port_failures, ...b.port_failures },
    ...(a.login || b.login ? { login: a.login ?? b.login } : {}),
    evidence: () => ({ ...a.evidence(), ...b.evidence() }),
    close: async () => {
      await Promise.all([a.close(), b.close()]);
    },
  };
}

/** An sshd on `port` as a target handle (port_map, the login, its failure as a port failure). */
async function sshdHandle(w: WorkPayload, p: Plan, port: number, fallback: boolean, mode: SshdMode, evidence: () => Record<string, unknown>, onStart?: (s: Sshd) => void): Promise<TargetHandle> {
  let sshd: Sshd | null = null;
  const notes: string[] = [];
  const port_map: Record<string, number> = {};
  const port_failures: Record<string, string> = {};
  try {
    sshd = await startSshd(w.local_address, port, fallback, p.sshKey, mode);
    port_map[String(port)] = sshd.port;
    if (sshd.note) notes.push(sshd.note);
    onStart?.(sshd);
  } catch (e) {
    if (e instanceof Incompatible) throw e;
    port_failures[String(port)] = (e as Error).message;
  }
  return {
    port_map,
    port_failures,
    ...(sshd ? { login: sshd.login } : {}),
    evidence: () => ({ sshd: { served: port_map, failures: port_failures, notes }, ...evidence() }),
    close: async () => {
      await sshd?.close();
    },
  };
}

/** The scp target: an sshd whose forced command runs scp into (upload) or out of (download) a temporary folder. */
export async function scpTarget(w: WorkPayload, p: Plan, opts: PerformOptions, served: Buffer | null, digest: Digest): Promise<TargetHandle> {
  const received: Record<string, unknown>[] = [];
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper('file_transfer', data) : data);
  const mode: SshdMode = served ? { kind: 'scp-source', name: p.path, data: tamper(served) } : { kind: 'scp-sink' };
  const watch = async (s: Sshd) => {
    const code = await s.uploaded(Date.now() + TRANSFER_TIMEOUT_MS);
    if (code === null) return;
    const [name] = fs.readdirSync(s.inbox);
    const file = name ? path.join(s.inbox, name) : null;
    if (!file || fs.statSync(file).size > MAX_WIRE_BYTES) {
      s.writeReceipt(JSON.stringify({ error: file ? 'larger than allowed' : 'no file arrived' }));
      return;
    }
    const d = await digest(p, tamper(fs.readFileSync(file)));
    received.push({ name, scp_exit: code, ...d });
    s.writeReceipt(JSON.stringify(d));
  };
  return sshdHandle(w, p, p.port, p.defaultPort, mode, () => ({ received }), served ? undefined : (s) => void watch(s).catch(() => s.writeReceipt('{"error":"the received file could not be read"}')));
}

const peerOf = (w: WorkPayload, p: Plan, port: number): SshPeer | { failure: string } => {
  if (!p.sshKey.includes('PRIVATE KEY')) throw new Incompatible('The work carries no one-time ssh key (the director is older than this actor).');
  if (!w.peer_login) return { failure: 'The destination actor did not report its ssh login' };
  return { host: p.destination, port, login: w.peer_login, keyPem: p.sshKey, local: w.local_address };
};

type Received = { received: { sha256: string; bytes: number } } | { failure: string };

/** The scp source: uploads the encoded file and reads the receipt, or downloads and decodes it. */
export async function scpSource(w: WorkPayload, p: Plan, port: number, sent: Buffer | null, signal: AbortSignal, digest: Digest): Promise<Received> {
  const failure = w.port_failures?.[String(p.port)];
  if (failure) return { failure: `The destination actor could not serve scp on port ${p.port}: ${failure}` };
  const peer = peerOf(w, p, port);
  if ('failure' in peer) return peer;
  const where = `${peer.host}:${port}`;
  if (!sent) {
    const r = await scpDownload(peer, p.path, MAX_WIRE_BYTES, signal);
    return 'failure' in r ? { failure: `The scp transfer from ${where} was ${r.failure}` } : { received: await digest(p, r.data) };
  }
  const r = await scpUpload(peer, p.path, sent, 64 * 1024, signal);
  if ('failure' in r) return { failure: `The scp transfer to ${where} was ${r.failure}` };
  try {
    const receipt = JSON.parse(r.receipt) as { sha256?: string; bytes?: number; error?: string };
    if (receipt.sha256 && typeof receipt.bytes === 'number') return { received: { sha256: receipt.sha256, bytes: receipt.bytes } };
    return { failure: `The receiver did not confirm the transfer (${receipt.error ?? 'no digest'})` };
  } catch {
    return { failure: 'The receiver did not confirm the transfer (altered receipt)' };
  }
}

/** The target side of an ssh tunnel: an sshd on port 22 (or a free one) forwarding only to this actor. */
export function sshTunnelTarget(w: WorkPayload, p: Plan): Promise<TargetHandle> {
  return sshdHandle(w, p, SSH_PORT, true, { kind: 'tunnel' }, () => ({}));
}

/** The source's ssh tunnel to the destination's sshd. */
export async function sshTunnelFor(w: WorkPayload, p: Plan, sshPort: number, signal: AbortSignal): Promise<Tunnel | { failure: string }> {
  const failure = w.port_failures?.[String(SSH_PORT)];
  if (failure) return { failure: `The destination actor could not start its sshd for the tunnel: ${failure}` };
  const peer = peerOf(w, p, sshPort);
  if ('failure' in peer) return peer;
  return openSshTunnel(peer, signal);
}

/** The target side of a dns tunnel: the DNS server of the tunnel's domain on UDP port 53 (or the port it may open). */
export async function dnsTunnelTarget(w: WorkPayload, p: Plan, opts: PerformOptions, served: Buffer | null, digest: Digest): Promise<TargetHandle> {
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper('file_transfer', data) : data);
  const received: Record<string, unknown>[] = [];
  const server = tunnelServer(p.dns?.domain ?? '', served ? tamper(served) : null, async (data) => {
    const d = await digest(p, tamper(data));
    received.push(d);
    return `sha256=${d.sha256} bytes=${d.bytes}`;
  });
  return servePort(
    DNS_PORT,
    (port) => bindUdp(server.sock, w.local_address, port),
    () => ({ sessions: server.sessions(), received }),
    async () => {
      try {
        server.sock.close();
      } catch {
        /* closed */
      }
    },
    true,
  );
}
