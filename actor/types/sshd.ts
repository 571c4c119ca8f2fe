/**
 * The target's own OpenSSH server for file_transfer over scp or an ssh tunnel: `sshd -D -e -f <config>`
 * on the target port, with a generated host key and the one-time client key of the signed work as
 * its only authorized key, for this actor's own user. A forced command allows only scp into (or out
 * of) a temporary folder; a tunnel server allows only forwarding to this actor's own address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Incompatible } from './contract';
import { findTool, runTool } from './tools';
import { MAX_WIRE_BYTES } from './transfer-plan';

const START_TIMEOUT_MS = 10_000;

export type SshdMode = { kind: 'scp-sink' } | { kind: 'scp-source'; name: string; data: Buffer } | { kind: 'tunnel' };

export interface Sshd {
  port: number;
  note?: string;
  /** The login the source uses: this actor's own user. */
  login: string;
  /** scp-sink: the folder the file arrives in. */
  inbox: string;
  /** scp-sink: resolves when the scp of the upload has ended (its exit status), or null when `until` passes first. */
  uploaded(until: number): Promise<number | null>;
  /** scp-sink: what the source reads back with the `vigil-receipt` command. */
  writeReceipt(text: string): void;
  close(): Promise<void>;
}

/** The programs the scp and ssh-tunnel transfers need on each side; Incompatible naming those missing. */
export function requirePrograms(names: string[], side: string): Record<string, string> {
  const found = Object.fromEntries(names.map((n) => [n, findTool(n)]));
  const missing = names.filter((n) => !found[n]);
  if (missing.length) throw new Incompatible(`OpenSSH's ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed on this actor (needed on the ${side} side).`);
  return found as Record<string, string>;
}

/** A port sshd can listen on: the wanted one, or (when it is busy or privileged and `fallback`) a free one. */
async function pickPort(address: string, port: number, fallback: boolean): Promise<{ port: number; note?: string }> {
  const probe = (p: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen({ port: p, host: address, exclusive: true }, () => {
        const got = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(got));
      });
    });
  try {
    return { port: await probe(port) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && !(fallback && code === 'EADDRINUSE')) throw e;
    const other = await probe(0);
    return { port: other, note: `port ${port} ${code === 'EACCES' ? 'needs privileges' : 'is in use on this actor'}; served on ${other}` };
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function forcedCommand(dir: string, scp: string, mode: SshdMode): string {
  const receipt = path.join(dir, 'receipt');
  if (mode.kind === 'tunnel') return '#!/bin/sh\necho "only port forwarding is allowed" >&2\nexit 1\n';
  if (mode.kind === 'scp-source') return `#!/bin/sh\nexec ${quote(scp)} -f ${quote(path.join(dir, 'out', mode.name))}\n`;
  return [
    '#!/bin/sh',
    'if [ "$SSH_ORIGINAL_COMMAND" = vigil-receipt ]; then',
    `  i=0; while [ ! -f ${quote(receipt)} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done`,
    `  exec cat ${quote(receipt)}`,
    'fi',
    `ulimit -f ${MAX_SINK_BLOCKS}`,
    `${quote(scp)} -t ${quote(path.join(dir, 'in'))}`,
    `echo $? > ${quote(path.join(dir, 'done.tmp'))} && mv ${quote(path.join(dir, 'done.tmp'))} ${quote(path.join(dir, 'done'))}`,
    '',
  ].join('\n');
}

/** The largest upload the scp sink may write (`ulimit -f`, in 512-byte blocks). */
const MAX_SINK_BLOCKS = Math.ceil(MAX_WIRE_BYTES / 512);

export async function startSshd(address: string, wantedPort: number, fallback: boolean, clientKeyPem: string, mode: SshdMode): Promise<Sshd> {
  const tools = requirePrograms(['sshd', 'ssh-keygen', ...(mode.kind === 'tunnel' ? [] : ['scp'])], 'destination');
  if (!clientKeyPem.includes('PRIVATE KEY')) throw new Incompatible('The work carries no one-time ssh key (the director is older than this actor).');
  const root = process.getuid?.() === 0;
  // sshd started by root needs its privilege-separation folder (the ssh service creates it at boot).
  if (root) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-sshd-'));
  const { username: login, shell } = os.userInfo();
  // sshd runs the forced command with the user's login shell.
  if (shell && /(nologin|false)$/.test(shell)) throw new Incompatible(`This actor's user ${login} has no login shell (${shell}), which sshd needs to run scp.`);
  let child: ChildProcess | null = null;
  let closed = false;
  const close = async () => {
    closed = true;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((r) => child?.once('exit', () => r()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    fs.mkdirSync(path.join(dir, 'in'));
    fs.mkdirSync(path.join(dir, 'out'));
    if (mode.kind === 'scp-source') fs.writeFileSync(path.join(dir, 'out', mode.name), mode.data);
    fs.writeFileSync(path.join(dir, 'client_key'), clientKeyPem.endsWith('\n') ? clientKeyPem : `${clientKeyPem}\n`, { mode: 0o600 });
    const keygen = async (args: string[]) => {
      const r = await runTool(tools['ssh-keygen'] ?? 'ssh-keygen', args, { timeoutMs: 10_000, maxBytes: 64 * 1024 });
      if (r.code !== 0) throw new Error(`ssh-keygen failed: ${r.stderr.slice(0, 200)}`);
      return r.stdout.toString('utf8').trim();
    };
    await keygen(['-q', '-t', 'ed25519', '-N', '', '-C', 'vigil-actor', '-f', path.join(dir, 'host_key')]);
    const pub = await keygen(['-y', '-f', path.join(dir, 'client_key')]);
    fs.rmSync(path.join(dir, 'client_key'));
    const force = path.join(dir, 'force.sh');
    const restrict = mode.kind === 'tunnel' ? `restrict,port-forwarding,permitopen="${address}:*"` : `restrict,command="${force}"`;
    fs.writeFileSync(path.join(dir, 'authorized_keys'), `${restrict} ${pub}\n`, { mode: 0o600 });
    fs.writeFileSync(force, forcedCommand(dir, tools.scp ?? 'scp', mode), { mode: 0o700 });
    const { port, note } = await pickPort(address, wantedPort, fallback);
    const config = [
      `ListenAddress ${address}:${port}`,
      `HostKey ${path.join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PidFile none',
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      `PermitRootLogin ${mode.kind === 'tunnel' ? 'prohibit-password' : 'forced-commands-only'}`,
      `AllowUsers ${login}`,
      `ForceCommand ${force}`,
      mode.kind === 'tunnel' ? 'AllowTcpForwarding local' : 'AllowTcpForwarding no',
      mode.kind === 'tunnel' ? `PermitOpen ${address}:*` : 'PermitOpen none',
      'AllowAgentForwarding no',
      'AllowStreamLocalForwarding no',
      'X11Forwarding no',
      'PermitTunnel no',
      'PermitTTY no',
      'PermitUserEnvironment no',
      'GatewayPorts no',
      'PrintMotd no',
      'MaxAuthTries 3',
      'MaxSessions 4',
      'LoginGraceTime 30',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'sshd_config'), config, { mode: 0o600 });
    const proc = spawn(tools.sshd ?? 'sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sshd did not start listening in time')), START_TIMEOUT_MS);
      proc.stderr?.on('data', (c: Buffer) => {
        if (log.length < 16 * 1024) log += c.toString('utf8');
        if (/Server listening on/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sshd ended (exit ${code}): ${log.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`));
      });
    });
    const uploaded = async (until: number) => {
      const done = path.join(dir, 'done');
      while (Date.now() < until && !closed) {
        if (fs.existsSync(done)) return Number(fs.readFileSync(done, 'utf8').trim());
        await new Promise((r) => setTimeout(r, 50));
      }
      return null;
    };
    const writeReceipt = (text: string) => {
      fs.writeFileSync(path.join(dir, 'receipt.tmp'), text);
      fs.renameSync(path.join(dir, 'receipt.tmp'), path.join(dir, 'receipt'));
    };
    return { port, ...(note ? { note } : {}), login, inbox: path.join(dir, 'in'), uploaded, writeReceipt, close };
  } catch (e) {
    await close();
    throw e;
  }
}
