/**
 * The source side of file_transfer over scp or an ssh tunnel, with the system's OpenSSH client: the
 * one-time key of the signed work, no host-key prompts, batch mode, bound to this actor's address and
 * in time. The tunnel is `ssh -N -D` (dynamic forwarding), so ftp's data connection crosses it too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runTool } from './tools';
import { requirePrograms } from './sshd';

const SSH_TIMEOUT_MS = 30_000;

export interface SshPeer {
  host: string;
  port: number;
  login: string;
  keyPem: string;
  /** This actor's address: every connection leaves from it. */
  local: string;
}

/** What went wrong, from OpenSSH's message. */
export function sshFailure(stderr: string, code: number | null): string {
  if (/connection refused/i.test(stderr)) return 'refused';
  if (/reset by peer|connection reset/i.test(stderr)) return 'reset';
  if (/timed out/i.test(stderr) || code === null) return 'timed out';
  if (/permission denied/i.test(stderr)) return 'refused (authentication failed)';
  const last = stderr.trim().split('\n').at(-1) ?? '';
  return last ? `ended with "${last.slice(0, 200)}"` : `ended with exit code ${code}`;
}

async function withKey<T>(keyPem: string, work: (dir: string, keyFile: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-ssh-'));
  const keyFile = path.join(dir, 'key');
  fs.writeFileSync(keyFile, keyPem.endsWith('\n') ? keyPem : `${keyPem}\n`, { mode: 0o600 });
  try {
    return await work(dir, keyFile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const options = (p: SshPeer, keyFile: string) => [
  '-i', keyFile,
  '-o', 'StrictHostKeyChecking=no',
  '-o', 'UserKnownHostsFile=/dev/null',
  '-o', 'BatchMode=yes',
  '-o', 'IdentitiesOnly=yes',
  '-o', 'LogLevel=ERROR',
  '-o', 'ConnectTimeout=10',
  '-o', `BindAddress=${p.local}`,
];

let classicFlag: Promise<string[]> | null = null;
/** `-O` (the classic scp protocol the target's forced command speaks) where scp has the flag: OpenSSH 8.7 and later. */
function classic(ssh: string): Promise<string[]> {
  classicFlag ??= runTool(ssh, ['-V'], { timeoutMs: 5000, maxBytes: 4096 }).then(
    (r) => {
      const m = /OpenSSH_(\d+)\.(\d+)/.exec(r.stderr || r.stdout.toString('utf8'));
      return m && (Number(m[1]) > 8 || (Number(m[1]) === 8 && Number(m[2]) >= 7)) ? ['-O'] : [];
    },
    () => ['-O'],
  );
  return classicFlag;
}

/** scp (classic protocol, -O) of `data` as `name` to the peer; then the receipt its sshd keeps. */
export async function scpUpload(p: SshPeer, name: string, data: Buffer, maxBytes: number, signal: AbortSignal): Promise<{ receipt: string } | { failure: string }> {
  const tools = requirePrograms(['scp', 'ssh'], 'source');
  const flag = await classic(tools.ssh ?? 'ssh');
  return withKey(p.keyPem, async (dir, keyFile) => {
    fs.writeFileSync(path.join(dir, name), data);
    const sent = await runTool(tools.scp ?? 'scp', [...flag, '-P', String(p.port), ...options(p, keyFile), name, `${p.login}@${p.host}:${name}`], { cwd: dir, timeoutMs: SSH_TIMEOUT_MS, maxBytes, signal });
    if (sent.code !== 0) return { failure: sshFailure(sent.stderr, sent.code) };
    const r = await runTool(tools.ssh ?? 'ssh', ['-p', String(p.port), ...options(p, keyFile), `${p.login}@${p.host}`, 'vigil-receipt'], { timeoutMs: SSH_TIMEOUT_MS, maxBytes: 4096, signal });
    if (r.code !== 0) return { failure: `unconfirmed (the receipt could not be read: ${sshFailure(r.stderr, r.code)})` };
    return { receipt: r.stdout.toString('utf8') };
  });
}

/** scp of the peer's file `name` to here. */
export async function scpDownload(p: SshPeer, name: string, maxBytes: number, signal: AbortSignal): Promise<{ data: Buffer } | { failure: string }> {
  const tools = requirePrograms(['scp', 'ssh'], 'source');
  const flag = await classic(tools.ssh ?? 'ssh');
  return withKey(p.keyPem, async (dir, keyFile) => {
    const r = await runTool(tools.scp ?? 'scp', [...flag, '-P', String(p.port), ...options(p, keyFile), `${p.login}@${p.host}:${name}`, 'received'], { cwd: dir, timeoutMs: SSH_TIMEOUT_MS, maxBytes, signal });
    if (r.code !== 0) return { failure: sshFailure(r.stderr, r.code) };
    const file = path.join(dir, 'received');
    if (!fs.existsSync(file)) return { failure: 'unconfirmed (scp wrote no file)' };
    if (fs.statSync(file).size > maxBytes) return { failure: 'larger than allowed' };
    return { data: fs.readFileSync(file) };
  });
}

export interface Tunnel {
  /** A connection to host:port on the peer's side, through the tunnel. */
  connect(host: string, port: number): Promise<net.Socket>;
  close(): void;
}

const freePort = (address: string) =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, address, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** How long a connection through an open ssh tunnel may take (the far sshd opens it on the tunnel's behalf). */
export const TUNNEL_CONNECT_TIMEOUT_MS = 10_000;

/** SOCKS5 CONNECT through the local end of the tunnel. */
function socksConnect(local: string, socksPort: number, host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: local, port: socksPort });
    const fail = (why: string) => {
      clearTimeout(timer);
      s.destroy();
      reject(Object.assign(new Error(why), { code: why === 'timed out' ? 'ETIMEDOUT' : 'ECONNREFUSED' }));
    };
    const timer = setTimeout(() => fail('timed out'), timeoutMs);
    let buf = Buffer.alloc(0);
    let stage = 0;
    const unreachable = () => fail(`the tunnel could not reach ${host}:${port}`);
    s.on('error', (e) => fail(e.message));
    // ssh closes the SOCKS connection when the far sshd refuses the forwarding.
    s.on('close', unreachable);
    s.on('connect', () => s.write(Buffer.from([5, 1, 0])));
    const onData = (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (stage === 0 && buf.length >= 2) {
        if (buf[0] !== 5 || buf[1] !== 0) return fail('the tunnel refused the SOCKS greeting');
        buf = buf.subarray(2);
        stage = 1;
        const ip = Buffer.from(host.split('.').map(Number));
        s.write(Buffer.concat([Buffer.from([5, 1, 0, 1]), ip, Buffer.from([port >> 8, port & 0xff])]));
      }
      if (stage === 1 && buf.length >= 10) {
        clearTimeout(timer);
        s.off('data', onData);
        if (buf[1] !== 0) return unreachable();
        s.removeAllListeners('error');
        s.off('close', unreachable);
        resolve(s);
      }
    };
    s.on('data', onData);
  });
}

/** `ssh -N -D` to the peer's sshd; ready once its local SOCKS port accepts connections. */
export async function openSshTunnel(p: SshPeer, signal: AbortSignal): Promise<Tunnel | { failure: string }> {
  const tools = requirePrograms(['ssh'], 'source');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-ssh-'));
  const keyFile = path.join(dir, 'key');
  fs.writeFileSync(keyFile, p.keyPem.endsWith('\n') ? p.keyPem : `${p.keyPem}\n`, { mode: 0o600 });
  const socksPort = await freePort(p.local);
  const child = spawn(tools.ssh ?? 'ssh', ['-N', '-D', `${p.local}:${socksPort}`, '-p', String(p.port), ...options(p, keyFile), '-o', 'ExitOnForwardFailure=yes', '-o', 'ServerAliveInterval=5', `${p.login}@${p.host}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    if (stderr.length < 4096) stderr += c.toString('utf8');
  });
  const close = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  signal.addEventListener('abort', close, { once: true });
  child.on('exit', () => signal.removeEventListener('abort', close));
  const deadline = Date.now() + SSH_TIMEOUT_MS;
  // The SOCKS port answers once ssh has authenticated and set up the forwarding.
  while (Date.now() < deadline && child.exitCode === null && !signal.aborted) {
    try {
      const probe = await socksConnect(p.local, socksPort, p.host, p.port, 2000);
      probe.destroy();
      return { connect: (host, port) => socksConnect(p.local, socksPort, host, port, TUNNEL_CONNECT_TIMEOUT_MS), close };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const code = child.exitCode;
  close();
  return { failure: `The ssh tunnel to ${p.host}:${p.port} ${code === null ? 'timed out' : `failed: ${sshFailure(stderr, code)}`}` };
}
