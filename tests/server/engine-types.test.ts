/**
 * Action types performed by their own actor modules (actor/types/): host_cli, email, file_transfer,
 * dns against the destination actor, and the captive types, between two actors on loopback.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorAgent } from '../../actor/agent';
import type { CommandRun } from '../../actor/types/host-cli';
import { fileTransferDetails, insertAction, insertLibraryFile, insertSimulation, runOneAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS, SRC_ADDRESS, loopback } from './loopback';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld({ allowHostCli: true });
});
afterAll(async () => {
  await w?.close();
});

const run = async (id: number, src = w.src.nodeId, dst = w.dst.nodeId) => {
  const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: src, target_node_id_1: dst, force_unlock: false } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ job_id: number }>().job_id;
};

const runAction = (type: string, details: Record<string, unknown>, timeoutMs: number | null = null) => runOneAction(w, type, details, timeoutMs);

const insertFile = (name: string, content: Buffer | null) => insertLibraryFile(w.server.db, name, content);

const hostCli = (shell: string, raw_text: string, cleanup_raw_text = '') => ({ shell, raw_text, cleanup_raw_text, separate_cleanup_shell: false, files: [] });

const commandsOf = (a: { evidence: Record<string, unknown> }) => a.evidence.source as { commands: CommandRun[]; cleanup: CommandRun[] };

describe('host_cli', () => {
  it('runs the commands in one shell, judges each by its conditions and runs the cleanup', async () => {
    const script = [
      'cd "$(mktemp -d)" && echo kept-state > f.txt',
      '    auto 0 true 10',
      '    success_zero',
      'cat f.txt; echo attack-ok',
      '    auto 0 true 10',
      '    blocked_match denied',
      '    success_match attack-ok',
      'echo cleaning up',
      '    auto 0 true 10',
      '    cleanup',
    ].join('\n');
    const a = await runAction('host_cli', hostCli('bash', script, 'echo cleanup-script-ran\n    auto 3 true 10'));
    expect(a.status).toBe('ran');
    expect(a.blocked).toBe(false);
    const ev = commandsOf(a);
    expect(ev.commands.map((c) => [c.exit_code, c.verdict, c.matched])).toEqual([
      [0, 'passed', 'success_zero'],
      [0, 'passed', 'success_match attack-ok'],
    ]);
    // The second command saw the directory and file of the first: one shell.
    expect(ev.commands[1]?.output).toBe('kept-state\nattack-ok\n');
    expect(ev.cleanup.map((c) => c.output)).toEqual(['cleaning up\n', 'cleanup-script-ran\n']);
  });

  it('a nonzero exit with blocked_nonzero is blocked; a missing success is blocked; the cleanup still runs', async () => {
    const blocked = await runAction('host_cli', hostCli('sh', 'ls /vigil-no-such-dir\n    auto 0 true 10\n    blocked_nonzero\necho never\n    auto 0 true 10', 'echo tidy\n    auto 0 true 10'));
    expect(blocked.status).toBe('ran');
    expect(blocked.blocked).toBe(true);
    expect(blocked.blocked_msg).toBe('Command 1 (ls /vigil-no-such-dir): matched blocked_nonzero');
    expect(commandsOf(blocked).commands).toHaveLength(1);
    expect(commandsOf(blocked).cleanup[0]?.output).toBe('tidy\n');
    const missing = await runAction('host_cli', hostCli('bash', 'echo quarantined\n    auto 0 true 10\n    success_match ^done$'));
    expect(missing.blocked).toBe(true);
    expect(missing.blocked_msg).toBe('Command 1 (echo quarantined): no success condition matched');
  });

  it('error and incompatible conditions end the action so; a command past its timeout is errored', async () => {
    const err = await runAction('host_cli', hostCli('bash', 'echo "fatal: broken"\n    auto 0 true 10\n    error_match fatal'));
    expect([err.status, err.blocked_msg]).toEqual(['errored', 'Command 1 (echo "fatal: broken"): matched error_match fatal']);
    const inc = await runAction('host_cli', hostCli('bash', 'exit 3\n    auto 0 true 10\n    incompatible_nonzero'));
    expect(inc.status).toBe('incompatible');
    const slow = await runAction('host_cli', hostCli('bash', 'sleep 30\n    auto 0 true 1'));
    expect(slow.status).toBe('errored');
    expect(slow.blocked_msg).toBe('Command 1 (sleep 30): timed out after 1 s waiting for the prompt');
  });

  it('python scripts run as one program; a shell that is not installed is incompatible with the reason', async () => {
    const py = await runAction('host_cli', hostCli('python', 'import sys\nprint("py-ran")\nsys.exit(2)'));
    expect(py.status).toBe('ran');
    expect(py.blocked).toBe(true);
    expect(py.blocked_msg).toBe('The python script ended with exit code 2');
    expect(commandsOf(py).commands[0]?.output).toBe('py-ran\n');
    const ps = await runAction('host_cli', hostCli('powershell', 'Get-Process\n    auto 0 true 10'));
    expect(ps.status).toBe('incompatible');
    expect(ps.blocked_msg).toBe('pwsh is not installed on this actor.');
  });

  it('cancelling the job ends the running command at once (its process is killed)', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-hostcli-test-')), 'pid');
    const id = await insertAction(w.server.db, 'host_cli', hostCli('bash', `sh -c 'echo $$ > ${pidFile}; exec sleep 60'\n    auto 0 true 120`));
    const jobId = await run(id);
    let pid = 0;
    for (let i = 0; i < 200 && !pid; i++) {
      if (fs.existsSync(pidFile)) pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      if (!pid) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pid).toBeGreaterThan(0);
    await w.server.db.query(`update jobs set status = 'cancelled' where id = $1`, [jobId]);
    let status = '';
    for (let i = 0; i < 200 && status !== 'cancelled'; i++) {
      const [row] = await w.server.db.query<{ status: string }>(`select status from job_actions where job_id = $1`, [jobId]);
      status = row?.status ?? '';
      if (status !== 'cancelled') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('cancelled');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    fs.rmSync(path.dirname(pidFile), { recursive: true, force: true });
  });

  it('attached files are delivered to their destination before the script, checked after the wait, and removed after', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-delivery-test-'));
    const fileId = await insertFile('tool.exe', MALWARE);
    const sha = crypto.createHash('sha256').update(MALWARE).digest('hex');
    const withFile = async (details: Record<string, unknown>, destination = dir) => {
      const id = await insertAction(w.server.db, 'host_cli', { ...details, delivery_failed_result: 'blocked', destination_exists_result: 'overwrite', automatic_file_cleanup: true });
      await w.server.db.query(`insert into action_files (action_id, file_id, position, details) values ($1, $2, 0, $3)`, [
        id,
        fileId,
        JSON.stringify({ destination_directory: destination, destination_name: 'dropped.bin', file_owner: 'match_action', randomize_file: false }),
      ]);
      const { actions } = await waitForJob(w.server.db, await run(id));
      return actions[0]!;
    };
    try {
      const ok = await withFile(hostCli('bash', `sha256sum ${dir}/dropped.bin\n    auto 0 true 10\n    success_match ${sha}`));
      expect(ok.status, ok.blocked_msg ?? '').toBe('ran');
      expect(ok.blocked).toBe(false);
      expect(ok.evidence.source).toMatchObject({ files: [{ path: path.join(dir, 'dropped.bin'), written: true }] });
      expect(fs.existsSync(path.join(dir, 'dropped.bin'))).toBe(false);
      // A control that removes the file during the delivery wait blocks the action before the script runs.
      const sweeper = setInterval(() => fs.rmSync(path.join(dir, 'dropped.bin'), { force: true }), 20);
      try {
        const quarantined = await withFile({ ...hostCli('bash', 'echo never\n    auto 0 true 10'), delivery_wait_time: 1 });
        expect(quarantined.blocked).toBe(true);
        expect(quarantined.blocked_msg).toBe(`Delivered file ${path.join(dir, 'dropped.bin')} was removed or changed after delivery`);
      } finally {
        clearInterval(sweeper);
      }
      const windows = await withFile(hostCli('bash', 'id\n    auto 0 true 10'), 'C:/users/public/documents/');
      expect(windows.status).toBe('incompatible');
      expect(windows.blocked_msg).toBe('The destination directory C:/users/public/documents/ of tool.exe is not a path on this actor.');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an actor started without --allow-host-cli does not advertise host_cli and its host_cli work is incompatible', async () => {
    const plain = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'plain', address: loopback(4), log: () => {}, pollWaitMs: 2000 });
    await plain.start();
    try {
      expect(plain.capabilities).not.toContain('host_cli');
      const [row] = await w.server.db.query<{ types: string[] }>(`select capabilities->'types' as types from nodes where id = $1`, [plain.nodeId]);
      expect(row?.types).not.toContain('host_cli');
      const id = await insertAction(w.server.db, 'host_cli', hostCli('bash', 'id\n    auto 0 true 10'));
      const { actions } = await waitForJob(w.server.db, await run(id, plain.nodeId, w.dst.nodeId));
      expect(actions[0]?.status).toBe('incompatible');
      expect(actions[0]?.blocked_msg).toBe('Actor plain cannot perform host_cli actions.');
    } finally {
      await plain.stop();
    }
  });
});

const MALWARE = Buffer.concat([Buffer.from('MZ-malware-sample-'), crypto.randomBytes(3000), Buffer.from('\r\n.\r\n=ends.\n')]);

describe('email', () => {
  const emailAction = async (files: { id: number; encoding: string; ignore?: boolean }[], scheme = 'subject_and_attachment') => {
    const id = await insertAction(w.server.db, 'email', { subject: 'Invoice №42', body: 'Please see the attached.', mime_text_type: 'text/plain', block_matching_scheme: scheme });
    for (const [i, f] of files.entries()) {
      await w.server.db.query(`insert into action_files (action_id, file_id, position, details) values ($1, $2, $3, $4)`, [
        id,
        f.id,
        i,
        JSON.stringify({ attachment_encoding: f.encoding, ignore_if_missing: f.ignore === true }),
      ]);
    }
    const { actions } = await waitForJob(w.server.db, await run(id));
    return actions[0]!;
  };

  it('the source sends the message with its attachments in each encoding to the target\'s SMTP sink, which receives them intact', async () => {
    const b64 = await insertFile('invoice.exe', MALWARE);
    const qp = await insertFile('macro.docm', Buffer.from('Sub AutoOpen()\r\n  Shell "calc" = 1\r\nEnd Sub \t\r\n'));
    const seven = await insertFile('note.txt', Buffer.from('.leading dot\r\nplain text\r\n'));
    const gone = await insertFile('gone.bin', null);
    const a = await emailAction([
      { id: b64, encoding: 'base64' },
      { id: qp, encoding: 'quoted-printable' },
      { id: seven, encoding: '7bit' },
      { id: gone, encoding: 'base64', ignore: true },
    ]);
    expect(a.status, a.blocked_msg ?? '').toBe('ran');
    expect(a.blocked).toBe(false);
    const src = a.evidence.source as { attachments: { name: string; bytes: number }[]; skipped_missing: string[]; dialogue: string[] };
    expect(src.attachments.map((x) => x.name)).toEqual(['invoice.exe', 'macro.docm', 'note.txt']);
    expect(src.attachments[0]?.bytes).toBe(MALWARE.length);
    expect(src.skipped_missing).toEqual(['gone.bin']);
    expect(src.dialogue.at(-1)).toBe('< 250 2.0.0 Message accepted intact');
  });

  it('an attachment altered on the way is blocked with the reason; a file without content (and no ignore_if_missing) is incompatible', async () => {
    const file = await insertFile('dropper.exe', MALWARE);
    // An in-path gateway rewrites the first base64 quantum of the attachment.
    w.dst.tamper = (type, data) => (type === 'email' ? Buffer.from(data.toString('latin1').replace('TVotbWFs', 'QUFBbWFs'), 'latin1') : data);
    try {
      const a = await emailAction([{ id: file, encoding: 'base64' }]);
      expect(a.status).toBe('ran');
      expect(a.blocked).toBe(true);
      expect(a.blocked_msg).toBe('The sink answered "554 5.7.0 Message altered: attachment dropper.exe differs"');
      // Judged by the subject only, the same message passes.
      const subjectOnly = await emailAction([{ id: file, encoding: 'base64' }], 'subject');
      expect(subjectOnly.blocked).toBe(false);
    } finally {
      w.dst.tamper = undefined;
    }
    const missing = await emailAction([{ id: await insertFile('absent.bin', null), encoding: 'base64' }]);
    expect(missing.status).toBe('incompatible');
    expect(missing.blocked_msg).toBe('File absent.bin has no content in the file library.');
  });

  it('when port 25 is taken on the destination, the sink serves on another port and the source follows the port map', async () => {
    const net = await import('node:net');
    const squatter = net.createServer((c) => c.destroy());
    await new Promise<void>((resolve) => {
      squatter.once('error', () => resolve()); // without privileges the actor cannot use port 25 either
      squatter.listen(25, DST_ADDRESS, resolve);
    });
    try {
      const a = await emailAction([]);
      expect(a.status, a.blocked_msg ?? '').toBe('ran');
      expect(a.blocked).toBe(false);
      const served = (a.evidence.target as { port_map: Record<string, number> }).port_map['25'];
      expect(served).toBeGreaterThan(1024);
    } finally {
      squatter.close();
    }
  });

  it('file bytes are handed only to the actor holding the work, for files the work names', async () => {
    const file = await insertFile('secret.bin', MALWARE);
    const other = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'other', address: loopback(5), log: () => {}, pollWaitMs: 2000 });
    await other.start();
    try {
      const [work] = await w.server.db.query<{ id: number }>(`select id from engine_work order by id desc limit 1`);
      const cred = (other as unknown as { cred: { token: string } }).cred.token;
      const call = (path: string, token: string) =>
        w.server.call('POST', `/api/actor/work/${path}`, { body: { session: other.session }, csrf: false, headers: { authorization: `Bearer ${token}` } });
      const notMine = await call(`${work?.id}/files/${file}`, cred);
      expect(notMine.statusCode).toBe(404);
      expect(notMine.json<{ error: string }>().error).toBe(`Work ${work?.id} is not assigned to this actor.`);
      const forged = await call(`${work?.id}/files/${file}`, 'vat_forged_credential_123');
      expect(forged.statusCode).toBe(401);
      const bad = await call('abc/files/1', cred);
      expect(bad.statusCode).toBe(400);
    } finally {
      await other.stop();
    }
  });
});

describe('file_transfer', () => {
  const transfer = async (fileId: number, over: Record<string, unknown>) =>
    runAction('file_transfer', fileTransferDetails(fileId, { target_port: 48201, ...over }));
  const sha = crypto.createHash('sha256').update(MALWARE).digest('hex');
  /** The transfer ran, was not blocked, and its evidence has these fields. */
  const expectIntact = async (fileId: number, over: Record<string, unknown>, evidence: Record<string, unknown>) => {
    const a = await transfer(fileId, over);
    expect(a.status, a.blocked_msg ?? '').toBe('ran');
    expect(a.blocked).toBe(false);
    expect(a.evidence.source).toMatchObject(evidence);
  };

  it('the file crosses between the actors over http (GET, gzip) and https (PUT, POST) and the receiver checks its sha256', async () => {
    const id = await insertFile('payload.dll', MALWARE);
    await expectIntact(id, { content_encoding: 'gzip', target_port: 48202 }, { method: 'GET', received_sha256: sha, received_bytes: MALWARE.length });
    await expectIntact(id, { method: 'PUT', app_layer: 'https', target_port: 48203 }, { method: 'PUT', received_sha256: sha });
    await expectIntact(id, { method: 'POST', target_port: 48204 }, { method: 'POST', received_sha256: sha });
  });

  it('over ftp the file is fetched (RETR) or stored (STOR) in passive mode; an altered file is blocked', async () => {
    const id = await insertFile('loader v2.exe', MALWARE);
    await expectIntact(id, { app_layer: 'ftp', target_port: 48211 }, { app_layer: 'ftp', method: 'GET', received_sha256: sha });
    await expectIntact(id, { app_layer: 'ftp', method: 'PUT', content_encoding: 'gzip', target_port: 48212 }, { method: 'PUT', received_sha256: sha, received_bytes: MALWARE.length });
    w.dst.tamper = (type, data) => (type === 'file_transfer' ? data.subarray(0, data.length - 10) : data);
    try {
      const cut = await transfer(id, { app_layer: 'ftp', method: 'POST', target_port: 48213 });
      expect(cut.blocked).toBe(true);
      expect(cut.blocked_msg).toMatch(/^The file arrived altered/);
    } finally {
      w.dst.tamper = undefined;
    }
  });

  it('a file altered on the way is blocked with compare_transfer and passes without it; a reset is blocked; an unknown app layer is incompatible with the reason', async () => {
    const id = await insertFile('implant.bin', MALWARE);
    w.dst.tamper = (type, data) => (type === 'file_transfer' ? Buffer.concat([data.subarray(0, 100), Buffer.from('XX'), data.subarray(102)]) : data);
    try {
      const altered = await transfer(id, { target_port: 48205 });
      expect(altered.status).toBe('ran');
      expect(altered.blocked).toBe(true);
      expect(altered.blocked_msg).toMatch(/^The file arrived altered \(sha256 /);
      const uploaded = await transfer(id, { method: 'POST', target_port: 48206 });
      expect(uploaded.blocked).toBe(true);
      const unchecked = await transfer(id, { compare_transfer: false, target_port: 48207 });
      expect(unchecked.blocked).toBe(false);
    } finally {
      w.dst.tamper = undefined;
    }
    // Something else holds the port and resets every connection: the transfer is blocked as reset.
    const net = await import('node:net');
    const resetter = net.createServer((c) => c.resetAndDestroy());
    await new Promise<void>((r) => resetter.listen(48209, DST_ADDRESS, r));
    try {
      const reset = await transfer(id, { target_port: 48209 });
      expect([reset.status, reset.blocked, reset.blocked_msg]).toEqual(['ran', true, `The transfer to ${DST_ADDRESS}:48209 was reset`]);
    } finally {
      resetter.close();
    }
    const smtp = await transfer(id, { app_layer: 'smtp', target_port: 48208 });
    expect(smtp.status).toBe('incompatible');
    expect(smtp.blocked_msg).toBe('file_transfer over smtp is not supported by this actor (http, https, ftp and scp are).');
  });
});

describe('dns with the destination actor as the DNS server', () => {
  const dnsServer = async (address: string) => {
    const [row] = await w.server.db.query<{ id: number }>(
      `insert into dns_servers (name, address) values ($1, $1) on conflict (address) do update set name = excluded.name returning id`,
      [address],
    );
    return row!.id;
  };

  it('the target answers the query as a DNS server and the source checks the record', async () => {
    const [dest] = await w.server.db.query<{ id: number }>(`select id from dns_servers where address = 'destination-actor'`);
    expect(dest).toBeDefined();
    const a = await runAction('dns', { query_type: 'A', domain: 'c2.vigil-test.example', dns_server_id: dest?.id });
    expect(a.status, a.blocked_msg ?? '').toBe('ran');
    expect(a.blocked).toBe(false);
    expect(a.evidence.source).toMatchObject({ server: DST_ADDRESS, rcode: 'NOERROR', answers: [`A ${DST_ADDRESS}`] });
    // A DNS server entry with the destination actor's own address works the same.
    const txt = await runAction('dns', { query_type: 'TXT', domain: 'tunnel.vigil-test.example', dns_server_id: await dnsServer(DST_ADDRESS) });
    expect(txt.blocked).toBe(false);
    expect(txt.evidence.source).toMatchObject({ answers: ['TXT vigil-actor'] });
  });

  it('an answer altered on the way is blocked', async () => {
    const [dest] = await w.server.db.query<{ id: number }>(`select id from dns_servers where address = 'destination-actor'`);
    // Rewrite the last octet of the A record.
    w.dst.tamper = (type, data) => (type === 'dns' ? Buffer.concat([data.subarray(0, -1), Buffer.from([66])]) : data);
    try {
      const a = await runAction('dns', { query_type: 'A', domain: 'c2.vigil-test.example', dns_server_id: dest?.id });
      expect(a.blocked).toBe(true);
      expect(a.blocked_msg).toBe(`DNS answer differs from the expected one (altered content): ${loopback(66)}`);
    } finally {
      w.dst.tamper = undefined;
    }
  });
});

describe('dns with a named DNS server', () => {
  const dnsServer = async (name: string, address: string) => {
    const [row] = await w.server.db.query<{ id: number }>(
      `insert into dns_servers (name, address) values ($1, $2) on conflict (address) do update set name = excluded.name returning id`,
      [name, address],
    );
    return row!.id;
  };
  const freeUdpPort = async (address: string) => {
    const dgram = await import('node:dgram');
    const s = dgram.createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, address, () => r()));
    const port = s.address().port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  };

  it('ACT-033 a server at the destination actor\'s address and port is served there by the destination, and the source asks exactly it', async () => {
    const port = await freeUdpPort(DST_ADDRESS);
    const a = await runAction('dns', { query_type: 'A', domain: 'beacon.vigil-test.example', dns_server_id: await dnsServer('Lab resolver on dst', `${DST_ADDRESS}:${port}`) });
    expect([a.status, a.blocked], a.blocked_msg ?? '').toEqual(['ran', false]);
    expect(a.evidence.source).toMatchObject({ server: DST_ADDRESS, port, answers: [`A ${DST_ADDRESS}`] });
    expect(a.evidence.target).toMatchObject({ port_map: { [String(port)]: port } });
  });

  it('ACT-033 a server at the source actor\'s own address is asked by the source alone', async () => {
    const dgram = await import('node:dgram');
    const { serveDns, encodeRdata } = await import('../../actor/types/dns-wire');
    const sock = dgram.createSocket('udp4');
    const asked: { from: string; name: string; type: string }[] = [];
    serveDns(sock, (name, type) => (name === 'exfil.vigil-test.example' && type === 'TXT' ? encodeRdata('TXT', 'lab-answer') : null), (q) => asked.push(q));
    await new Promise<void>((r) => sock.bind(0, SRC_ADDRESS, () => r()));
    const port = sock.address().port;
    try {
      const id = await dnsServer('Resolver on src', `${SRC_ADDRESS}:${port}`);
      const a = await runAction('dns', { query_type: 'TXT', domain: 'exfil.vigil-test.example', dns_server_id: id });
      expect([a.status, a.blocked], a.blocked_msg ?? '').toEqual(['ran', false]);
      expect(a.evidence.source).toMatchObject({ server: SRC_ADDRESS, port, answers: ['TXT lab-answer'] });
      expect(a.evidence.target).toBeNull();
      expect(asked).toEqual([{ from: SRC_ADDRESS, name: 'exfil.vigil-test.example', type: 'TXT' }]);
      const missing = await runAction('dns', { query_type: 'A', domain: 'exfil.vigil-test.example', dns_server_id: id });
      expect([missing.blocked, missing.blocked_msg]).toEqual([true, 'DNS query NXDOMAIN']);
    } finally {
      sock.close();
    }
  });

  it('ACT-033 a server outside the two actors is not queried: the action ends incompatible with the reason', async () => {
    const a = await runAction('dns', { query_type: 'A', domain: 'c2.vigil-test.example', dns_server_id: await dnsServer('Corporate DNS', '10.10.0.10') });
    expect([a.status, a.blocked_msg]).toEqual([
      'incompatible',
      'The DNS server Corporate DNS (10.10.0.10) is not an address of the source or destination actor, and actors query no address outside the two.',
    ]);
    // The actor refuses such work on its own too.
    const { dnsPeerSource } = await import('../../actor/types/dns');
    const work = { details: { domain: 'c2.vigil-test.example', query_type: 'A', dns_server: { address: '10.10.0.10', port: 53 } }, local_address: SRC_ADDRESS };
    await expect(dnsPeerSource(work as never, new AbortController().signal)).rejects.toThrow(
      'The DNS server 10.10.0.10 is not an address of this actor or of the destination actor; the actor queries no address outside the two.',
    );
  });
});

describe('captive types on one actor', () => {
  it('captive_dns answers the configured query with the configured response on the actor itself', async () => {
    const a = await runAction('captive_dns', { query_type: 'A', query: 'evil.vigil-test.example', response: '10.66.0.7' });
    expect(a.status, a.blocked_msg ?? '').toBe('ran');
    expect(a.blocked).toBe(false);
    expect(a.evidence.source).toMatchObject({ server: SRC_ADDRESS, answers: ['A 10.66.0.7'] });
    const mx = await runAction('captive_dns', { query_type: 'MX', query: 'mail.vigil-test.example', response: '5 mx.evil.example' });
    expect(mx.evidence.source).toMatchObject({ answers: ['MX 5 mx.evil.example'] });
    const bad = await runAction('captive_dns', { query_type: 'A', query: 'x.vigil-test.example', response: 'not-an-ip' });
    expect(bad.status).toBe('errored');
    expect(bad.blocked_msg).toBe('The response is not a A record: "not-an-ip" is not an IPv4 address');
  });

  it("captive_ioc_url fetches URLs on the actor's own address and refuses any other host", async () => {
    const ok = await runAction('captive_ioc_url', { urls: [`http://${SRC_ADDRESS}:48301/ioc/payload.exe?id=1`, `https://${SRC_ADDRESS}:48302/beacon`] });
    expect(ok.status, ok.blocked_msg ?? '').toBe('ran');
    expect(ok.blocked).toBe(false);
    const urls = (ok.evidence.source as { urls: { url: string; result: string }[] }).urls;
    expect(urls.map((u) => u.result)).toEqual(['fetched', 'fetched']);
    const outside = await runAction('captive_ioc_url', { urls: [`http://${SRC_ADDRESS}:48303/a`, 'http://malware.example.com/drop.exe'] });
    expect(outside.status).toBe('incompatible');
    expect(outside.blocked_msg).toBe(
      `http://malware.example.com/drop.exe does not resolve to this actor's address (${SRC_ADDRESS}); captive URLs are fetched only from the actor itself, never from the internet.`,
    );
    w.src.tamper = (type, data) => (type === 'captive_ioc_url' ? Buffer.from('<html>blocked by policy</html>') : data);
    try {
      const altered = await runAction('captive_ioc_url', { urls: [`http://${SRC_ADDRESS}:48304/ioc`] });
      expect(altered.blocked).toBe(true);
      expect(altered.blocked_msg).toBe(`http://${SRC_ADDRESS}:48304/ioc: the content differs (altered content)`);
    } finally {
      w.src.tamper = undefined;
    }
  });
});

describe('a sequence of the new types', () => {
  it('JOB-047 email, file_transfer and dns answered by the destination run in one sequence step, then captive types on one actor', async () => {
    const fileId = await insertFile('stage2.bin', MALWARE);
    const [dest] = await w.server.db.query<{ id: number }>(`select id from dns_servers where address = 'destination-actor'`);
    const two = [
      await insertAction(w.server.db, 'email', { subject: 'Quarterly report', body: 'See attached', mime_text_type: 'text/html', block_matching_scheme: 'subject' }),
      await insertAction(w.server.db, 'file_transfer', { file_transfer_library_id: fileId, compare_transfer: true, method: 'POST', app_layer: 'http', target_port: 48401, tunnel_protocol: 'none' }),
      await insertAction(w.server.db, 'dns', { query_type: 'MX', domain: 'exfil.vigil-test.example', dns_server_id: dest?.id }),
    ];
    const one = [
      await insertAction(w.server.db, 'captive_dns', { query_type: 'TXT', query: 'c2.vigil-test.example', response: 'cmd=sleep' }),
      await insertAction(w.server.db, 'captive_ioc_url', { urls: [`http://${SRC_ADDRESS}:48402/stage`] }),
    ];
    const simId = await insertSimulation(w.server.db, 'sequence', [two, one]);
    const res = await w.server.call('POST', `/run/sequences/${simId}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, force_unlock: false } });
    expect(res.statusCode, res.body).toBe(201);
    const { job, actions } = await waitForJob(w.server.db, res.json<{ job_id: number }>().job_id);
    expect(job.status).toBe('completed');
    expect(actions.map((a) => [a.action_type, a.status, a.blocked])).toEqual([
      ['email', 'ran', false],
      ['file_transfer', 'ran', false],
      ['dns', 'ran', false],
      ['captive_dns', 'ran', false],
      ['captive_ioc_url', 'ran', false],
    ]);
  });
});
