/**
 * file_transfer between two actors on loopback beyond plain http/https/ftp: every content encoding,
 * scp with the target's own sshd, ssh and dns tunnels, the tunnel CIDR and what is refused.
 * OpenSSH (sshd, ssh, scp, ssh-keygen) must be installed; VIGIL_SKIP_OPENSSH_TESTS=1 skips the tests that need it.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSshTunnel } from '../../actor/types/ssh-client';
import { startSshd } from '../../actor/types/sshd';
import { findTool, runTool } from '../../actor/types/tools';
import { withTransferKey } from '../../server/engine/transfer-key';
import { fileTransferDetails, insertLibraryFile, runOneAction, startEngineWorld, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS, LOOPBACK_NET, SRC_ADDRESS } from './loopback';

let w: EngineWorld;
beforeAll(async () => {
  w = await startEngineWorld();
});
afterAll(async () => {
  await w?.close();
});

const PAYLOAD = Buffer.concat([Buffer.from('MZ-transfer-sample-'), crypto.randomBytes(5000), Buffer.from('stage two '.repeat(300))]);
const sha = crypto.createHash('sha256').update(PAYLOAD).digest('hex');
let fileId = 0;
const file = async () => (fileId ||= await insertLibraryFile(w.server.db, 'dropper.exe', PAYLOAD));

const transfer = async (over: Record<string, unknown>) => runOneAction(w, 'file_transfer', fileTransferDetails(await file(), over));

const expectIntact = async (over: Record<string, unknown>, evidence: Record<string, unknown> = {}) => {
  const a = await transfer(over);
  expect([a.status, a.blocked, a.blocked_msg]).toEqual(['ran', false, null]);
  expect(a.evidence.source).toMatchObject({ received_sha256: sha, received_bytes: PAYLOAD.length, ...evidence });
  return a;
};

/** An in-path device on the destination that flips a byte of what it serves or receives. */
const withFlippedByte = async <T>(run: () => Promise<T>): Promise<T> => {
  w.dst.tamper = (type, data) => {
    if (type !== 'file_transfer' || data.length < 200) return data;
    const out = Buffer.from(data);
    out[150] = (out[150] ?? 0) ^ 0xff;
    return out;
  };
  try {
    return await run();
  } finally {
    w.dst.tamper = undefined;
  }
};

const OPENSSH = ['sshd', 'ssh', 'scp', 'ssh-keygen'];
const skipOpenSsh = process.env.VIGIL_SKIP_OPENSSH_TESTS === '1';

describe('content encodings', () => {
  it('ACT-075 ACT-119 zip, gzip, bzip2 and tar are applied in order before the file crosses and undone by the receiver', async () => {
    await expectIntact({ content_encoding: 'zip', target_port: 48601 }, { content_encoding: ['zip'] });
    await expectIntact({ content_encoding: 'gzip', method: 'POST', target_port: 48602 }, { content_encoding: ['gzip'] });
    await expectIntact({ content_encoding: 'bzip2', app_layer: 'ftp', method: 'PUT', target_port: 48603 }, { content_encoding: ['bzip2'] });
    await expectIntact({ content_encoding: 'tar', app_layer: 'ftp', target_port: 48604 }, { content_encoding: ['tar'] });
    await expectIntact({ content_encoding: 'zip,gzip', app_layer: '48610' }, { app_layer: 'http', port: 48610 });
    await expectIntact({ content_encoding: 'tar, gzip,zip,bzip2', method: 'PUT', app_layer: 'https', target_port: 48605 }, { content_encoding: ['tar', 'gzip', 'zip', 'bzip2'] });
  });

  it('ACT-119 7zip and rar use the 7z and rar programs: transferred when installed, else incompatible naming the program', async () => {
    const sevenZip = findTool('7z', '7za', '7zz');
    const a = await transfer({ content_encoding: '7zip', method: 'POST', target_port: 48606 });
    if (sevenZip) expect([a.status, a.blocked]).toEqual(['ran', false]);
    else expect([a.status, a.blocked_msg]).toEqual(['incompatible', 'The 7zip content encoding needs the 7z, 7za or 7zz program, which is not installed on this actor.']);
    const r = await transfer({ content_encoding: 'zip,rar', target_port: 48607 });
    if (findTool('rar')) expect([r.status, r.blocked]).toEqual(['ran', false]);
    else expect([r.status, r.blocked_msg]).toEqual(['incompatible', 'The rar content encoding needs the rar program, which is not installed on this actor.']);
    const unknown = await transfer({ content_encoding: 'lzma', target_port: 48608 });
    expect([unknown.status, unknown.blocked_msg]).toEqual(['incompatible', '"lzma" is not a content encoding (zip, gzip, bzip2, tar, rar, 7zip are).']);
  });

  it('a zip altered on the way fails its check on the receiver and the transfer is blocked', async () => {
    const a = await withFlippedByte(() => transfer({ content_encoding: 'zip', method: 'POST', target_port: 48609 }));
    expect([a.status, a.blocked]).toEqual(['ran', true]);
    expect(a.blocked_msg).toMatch(/^The file arrived altered \(sha256 /);
  });
});

describe.skipIf(skipOpenSsh)('over OpenSSH', () => {
  beforeAll(() => {
    const missing = OPENSSH.filter((t) => !findTool(t));
    if (missing.length) throw new Error(`OpenSSH's ${missing.join(', ')} not installed: apt-get install openssh-server openssh-client, or set VIGIL_SKIP_OPENSSH_TESTS=1`);
  });

  it('ACT-119 scp: the file is uploaded into the destination sshd\'s temporary folder and downloaded from it (default port 25 or the one served instead)', async () => {
    const up = await expectIntact({ app_layer: 'scp', method: 'PUT', content_encoding: 'gzip' }, { app_layer: 'scp', method: 'PUT' });
    expect(up.evidence.target).toMatchObject({ port_map: { '25': expect.any(Number) }, port_failures: {} });
    await expectIntact({ app_layer: 'scp', target_port: 48621 }, { app_layer: 'scp', method: 'GET', port: 48621 });
  });

  it('scp of a file altered on the way is blocked; an scp port held by another program is blocked with the reason the destination gave', async () => {
    const altered = await withFlippedByte(() => transfer({ app_layer: 'scp', method: 'POST', target_port: 48622 }));
    expect([altered.status, altered.blocked]).toEqual(['ran', true]);
    expect(altered.blocked_msg).toMatch(/^The file arrived altered/);
    const net = await import('node:net');
    const holder = net.createServer((c) => c.destroy());
    await new Promise<void>((r) => holder.listen(48623, DST_ADDRESS, r));
    try {
      const busy = await transfer({ app_layer: 'scp', method: 'POST', target_port: 48623 });
      expect([busy.status, busy.blocked]).toEqual(['ran', true]);
      expect(busy.blocked_msg).toMatch(/^The destination actor could not serve scp on port 48623/);
    } finally {
      holder.close();
    }
  });

  it('the destination sshd lets the key only scp into its temporary folder, and its tunnel reach only the destination', async () => {
    const key = String(withTransferKey({ app_layer: 'scp' }).ssh_key);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-sshd-test-'));
    fs.writeFileSync(path.join(dir, 'key'), key, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'note.txt'), 'hello');
    const login = os.userInfo().username;
    const opts = ['-i', path.join(dir, 'key'), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes', '-o', 'LogLevel=ERROR'];
    const sink = await startSshd(DST_ADDRESS, 48651, false, key, { kind: 'scp-sink' });
    const escape = path.join(dir, 'escaped.txt');
    try {
      const scp = await runTool(findTool('scp') ?? 'scp', ['-O', '-P', '48651', ...opts, path.join(dir, 'note.txt'), `${login}@${DST_ADDRESS}:${escape}`], { timeoutMs: 20_000, maxBytes: 4096 });
      expect(scp.code, scp.stderr).toBe(0);
      expect(fs.existsSync(escape)).toBe(false);
      expect(fs.readFileSync(path.join(sink.inbox, 'note.txt'), 'utf8')).toBe('hello');
      const shell = await runTool(findTool('ssh') ?? 'ssh', ['-p', '48651', ...opts, `${login}@${DST_ADDRESS}`, 'echo shell-ran'], { timeoutMs: 20_000, maxBytes: 4096 });
      expect(shell.stdout.toString('utf8')).not.toContain('shell-ran');
    } finally {
      await sink.close();
    }
    const tunnelSshd = await startSshd(DST_ADDRESS, 48652, false, key, { kind: 'tunnel' });
    const tunnel = await openSshTunnel({ host: DST_ADDRESS, port: 48652, login, keyPem: key, local: SRC_ADDRESS }, new AbortController().signal);
    try {
      if ('failure' in tunnel) throw new Error(tunnel.failure);
      const director = Number(new URL(w.url).port);
      await expect(tunnel.connect('127.0.0.1', director)).rejects.toThrow('the tunnel could not reach 127.0.0.1:');
      (await tunnel.connect(DST_ADDRESS, 48652)).destroy();
    } finally {
      if (!('failure' in tunnel)) tunnel.close();
      await tunnelSshd.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ssh tunnel: http, https and ftp transfers cross through ssh -D to the destination\'s own sshd', async () => {
    await expectIntact({ tunnel_protocol: 'ssh', target_port: 48631, tunnel_cidr: `${LOOPBACK_NET}.0/24` }, { tunnel: 'ssh', ssh_port: expect.any(Number) });
    await expectIntact({ tunnel_protocol: 'ssh', app_layer: 'ftp', method: 'PUT', content_encoding: 'zip', target_port: 48632 }, { tunnel: 'ssh', app_layer: 'ftp' });
    await expectIntact({ tunnel_protocol: 'ssh', app_layer: 'https', method: 'POST', target_port: 48634 }, { tunnel: 'ssh', app_layer: 'https' });
    const scp = await transfer({ tunnel_protocol: 'ssh', app_layer: 'scp', target_port: 48633 });
    expect([scp.status, scp.blocked_msg]).toEqual(['incompatible', 'The ssh tunnel protocol is not offered with the scp app layer.']);
  });
});

describe('dns tunnel', () => {
  it('the file crosses in DNS queries to the destination actor (upload) and in its TXT answers (download)', async () => {
    const dns = { tunnel_protocol: 'dns', dns_domain: 'exfil.vigil-test.example', dns_server_ip: DST_ADDRESS, tunnel_cidr: `${LOOPBACK_NET}.0/29` };
    const up = await expectIntact({ ...dns, method: 'POST', content_encoding: 'bzip2' }, { tunnel: 'dns', dns_queries: expect.any(Number) });
    expect((up.evidence.source as { dns_queries: number }).dns_queries).toBeGreaterThan(10);
    expect(up.evidence.target).toMatchObject({ port_map: { '53': expect.any(Number) } });
    await expectIntact({ ...dns, dns_server_ip: '' }, { tunnel: 'dns', method: 'GET' });
    const altered = await withFlippedByte(() => transfer({ ...dns, method: 'PUT' }));
    expect([altered.status, altered.blocked]).toEqual(['ran', true]);
    expect(altered.blocked_msg).toMatch(/^The file arrived altered/);
  });

  it('a DNS server outside the two actors, the source as DNS server, a missing domain, an icmp tunnel and addresses outside the tunnel CIDR are incompatible with the reason', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tunnel_protocol: 'dns', dns_domain: 'x.example', dns_server_ip: '8.8.8.8' }, 'The DNS server IP 8.8.8.8 is not an address of the two actors, and nothing is sent outside them.'],
      [{ tunnel_protocol: 'dns', dns_domain: 'x.example', dns_server_ip: SRC_ADDRESS }, `The DNS server IP of a dns tunnel must be the destination actor's address (${DST_ADDRESS}): it answers the tunnel's queries.`],
      [{ tunnel_protocol: 'dns', dns_domain: '' }, 'A dns tunnel needs a DNS domain.'],
      [{ tunnel_protocol: 'icmp' }, 'file_transfer through an icmp tunnel is not supported by this actor: Node.js cannot open raw ICMP sockets without native code.'],
      [{ tunnel_protocol: 'dns', dns_domain: 'x.example', tunnel_cidr: '10.0.0.0/8' }, `The tunnel CIDR 10.0.0.0/8 does not contain ${SRC_ADDRESS} and ${DST_ADDRESS}, addresses the tunnel uses.`],
      [{ tunnel_protocol: 'ssh', tunnel_cidr: `${DST_ADDRESS}/32` }, `The tunnel CIDR ${DST_ADDRESS}/32 does not contain ${SRC_ADDRESS}, an address the tunnel uses.`],
      [{ tunnel_protocol: 'ssh', tunnel_cidr: '127.0.0/33' }, 'The tunnel CIDR "127.0.0/33" is not an IPv4 CIDR such as 10.0.0.0/8.'],
    ];
    for (const [over, reason] of cases) {
      const a = await transfer({ target_port: 48641, ...over });
      expect([a.status, a.blocked_msg]).toEqual(['incompatible', reason]);
    }
  });
});
