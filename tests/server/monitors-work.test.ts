/**
 * What a monitor's configuration changes in the work its runs send to the actors, on the real engine
 * and loopback actors: the action configuration's runtime_* values replace the Action's own details
 * (and the actor performs with them, as the target actor sees on the wire), and the group's run-as user
 * and Interactive Session follow the run-as rules on the actor that performs the action (MON-103..106, MON-065).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorDetail } from '@/api/contracts/monitors';
import { RUN_AS_UNSUPPORTED_MESSAGE } from '@/api/contracts/run-as-selection';
import { fileTransferDetails, insertAction, insertLibraryFile, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS } from './loopback';

let w: EngineWorld;
beforeAll(async () => {
  process.env.MONITOR_TICK_MS = '3600000';
  w = await startEngineWorld();
});
afterAll(async () => {
  delete process.env.MONITOR_TICK_MS;
  await w?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

async function createMonitor(name: string, actionId: number, action: Record<string, unknown>, group: Record<string, unknown> = {}) {
  return w.server.call('POST', '/monitors.json', {
    as: w.operator,
    body: {
      name,
      monitor_runtime: `${today()} 23:59`,
      timezone: 'UTC',
      repeat_job_period_number: 1,
      repeat_job_period_type: 'days',
      detection_timeout_seconds: 0,
      steps: [{ name: 'Group', run_between: 'node', attack_node: w.src.nodeId, target_node: w.dst.nodeId, actions: [{ action_id: actionId, expected_blocked: 'no', expected_detected: 'does_not_matter', ...action }], ...group }],
    },
  });
}

const targetSaw = (evidence: Record<string, unknown>) => (evidence.target as { received: Record<string, unknown>[] } | null)?.received ?? [];

/** Runs the monitor now and answers its job action and the details the engine sent to the source actor. */
async function runNow(id: number) {
  await w.server.call('POST', `/monitors/${id}/pause.json`, { as: w.operator });
  const res = await w.server.call('POST', `/monitors/${id}/run_now.json`, { as: w.operator });
  expect(res.statusCode, res.body).toBe(201);
  const jobId = res.json<{ job_id: number }>().job_id;
  const { actions } = await waitForJob(w.server.db, jobId);
  const [work] = await w.server.db.query<{ payload: { details: Record<string, unknown> } }>(`select payload from engine_work where job_id = $1 and role = 'source'`, [jobId]);
  return { action: actions[0]!, details: work?.payload.details ?? {} };
}

const setActor = (id: number | null, os: string, version: string, type = 'endpoint', sandbox: number | null = null) =>
  w.server.db.query('update nodes set os_base = $2, node_version = $3, node_type = $4, sandbox_node_id = $5 where id = $1', [id, os, version, type, sandbox]);

describe('a monitor run’s work', () => {
  it('MON-035 MON-038 the action configuration’s runtime_* values replace the Action’s details, and the actor performs with them', async () => {
    const payload = Buffer.concat([Buffer.from('monitor-runtime-'), crypto.randomBytes(2000)]);
    const fileId = await insertLibraryFile(w.server.db, 'runtime.bin', payload);
    const actionId = await insertAction(w.server.db, 'file_transfer', fileTransferDetails(fileId, { target_port: 48621, user_agent: 'Action/1.0' }), 'Transfer with runtime values');
    const created = await createMonitor('Runtime values', actionId, { runtime: { runtime_target_port: '48622', runtime_user_agent: 'VigilMonitor/2.0', runtime_content_encoding: 'gzip' } });
    expect(created.statusCode, created.body).toBe(201);
    const { action, details } = await runNow(created.json<MonitorDetail>().id);
    // What the engine sent: the monitor's values, the port as a number.
    expect(details).toMatchObject({ target_port: 48622, user_agent: 'VigilMonitor/2.0', content_encoding: 'gzip' });
    // What the actor did: the transfer crossed on the monitor's port with the monitor's encoding.
    expect([action.status, action.blocked], action.blocked_msg ?? '').toEqual(['ran', false]);
    expect(action.evidence.source).toMatchObject({ port: 48622, content_encoding: ['gzip'], received_bytes: payload.length });
    // The Action itself is unchanged.
    const [row] = await w.server.db.query<{ details: Record<string, unknown> }>('select details from actions where id = $1', [actionId]);
    expect(row?.details).toMatchObject({ target_port: 48621, user_agent: 'Action/1.0' });
  });

  it('MON-103 MON-104 MON-106 run-as and the Interactive Session reach the work only as the rules allow on the performing actor', async () => {
    const [profile] = await w.server.db.query<{ id: number }>(`insert into action_user_profiles (friendly_name, username) values ('Monitor runner', 'monrunner') returning id`);
    const scanId = await insertAction(w.server.db, 'port_scan', { ports_list: '47231', sleep_timer: 0, randomize_scan: false }, 'Scan 47231');
    // The loopback source registered as a Linux actor: a port_scan group cannot run as a user there.
    const refused = await createMonitor('Run as on Linux', scanId, {}, { action_user_profile: profile!.id, interactive_desktop_session: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ errors: Record<string, string[]> }>().errors['steps[0].action_user_profile']).toContain(RUN_AS_UNSUPPORTED_MESSAGE);
    expect((await w.server.db.query(`select 1 from monitors where name = 'Run as on Linux'`)).length).toBe(0);

    // Reported as a Windows 4.12 endpoint, it can.
    await setActor(w.src.nodeId, 'windows', '4.12.1');
    const created = await createMonitor('Run as on Windows', scanId, {}, { action_user_profile: profile!.id, interactive_desktop_session: true });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<MonitorDetail>().id;
    const windows = await runNow(id);
    expect(windows.details).toMatchObject({ action_user_profile_id: profile!.id, run_as: { username: 'monrunner', friendly_name: 'Monitor runner' }, interactive_session: true });

    // An older actor version by the time the monitor runs: the run goes on as System, without a session.
    await setActor(w.src.nodeId, 'windows', '4.9.0');
    const old = await runNow(id);
    expect(old.details.run_as).toBeUndefined();
    expect(old.details.action_user_profile_id).toBeUndefined();
    expect(old.details.interactive_session).toBe(true);
    // Back on Linux: port_scan has no session without a Windows actor (MON-106).
    await setActor(w.src.nodeId, 'linux', '4.12.1');
    const linux = await runNow(id);
    expect([linux.details.run_as, linux.details.interactive_session]).toEqual([undefined, false]);
  });

  it('MON-038 runtime_orig_file_name, runtime_path and runtime_referer reach the wire of an http upload and download', async () => {
    const payload = Buffer.concat([Buffer.from('monitor-wire-'), crypto.randomBytes(1500)]);
    const fileId = await insertLibraryFile(w.server.db, 'library-name.bin', payload);
    const upload = await insertAction(w.server.db, 'file_transfer', fileTransferDetails(fileId, { method: 'POST', target_port: 48631 }), 'Upload with runtime values');
    const runtime = { runtime_orig_file_name: 'Q3 report.pdf', runtime_path: '/drop/incoming/', runtime_referer: 'https://portal.example/upload?step=2' };
    const up = await createMonitor('Upload on the wire', upload, { runtime });
    expect(up.statusCode, up.body).toBe(201);
    const sent = await runNow(up.json<MonitorDetail>().id);
    expect([sent.action.status, sent.action.blocked], sent.action.blocked_msg ?? '').toEqual(['ran', false]);
    // What the destination actor's server received: the request line, the Referer and the Content-Disposition name.
    expect(targetSaw(sent.action.evidence)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/drop/incoming/Q3%20report.pdf', referer: 'https://portal.example/upload?step=2', file_name: 'Q3 report.pdf', bytes: payload.length }),
    ]);
    expect(sent.action.evidence.source).toMatchObject({ file: 'library-name.bin', file_name: 'Q3 report.pdf', path: '/drop/incoming/Q3%20report.pdf' });

    const download = await insertAction(w.server.db, 'file_transfer', fileTransferDetails(fileId, { method: 'GET', target_port: 48632 }), 'Download with runtime values');
    const down = await createMonitor('Download on the wire', download, { runtime: { runtime_orig_file_name: 'invoice.exe', runtime_path: 'files/payload.bin', runtime_referer: 'https://mail.example/' } });
    expect(down.statusCode, down.body).toBe(201);
    const got = await runNow(down.json<MonitorDetail>().id);
    expect([got.action.status, got.action.blocked], got.action.blocked_msg ?? '').toEqual(['ran', false]);
    expect(targetSaw(got.action.evidence)).toEqual([expect.objectContaining({ method: 'GET', path: '/files/payload.bin', referer: 'https://mail.example/' })]);
    // The name the destination served the file as, read by the source from the answer's Content-Disposition.
    expect(got.action.evidence.source).toMatchObject({ served_file_name: 'invoice.exe', received_bytes: payload.length });
  });

  it('MON-038 runtime_path names the file an ftp transfer stores', async () => {
    const payload = crypto.randomBytes(900);
    const fileId = await insertLibraryFile(w.server.db, 'ftp-library.bin', payload);
    const actionId = await insertAction(w.server.db, 'file_transfer', fileTransferDetails(fileId, { app_layer: 'ftp', method: 'PUT', target_port: 48633 }), 'FTP with runtime path');
    const created = await createMonitor('FTP path on the wire', actionId, { runtime: { runtime_path: '/incoming/../exfil/data.bin' } });
    expect(created.statusCode, created.body).toBe(201);
    const { action } = await runNow(created.json<MonitorDetail>().id);
    expect([action.status, action.blocked], action.blocked_msg ?? '').toEqual(['ran', false]);
    // The STOR the ftp server answered (a '..' segment is dropped, never followed).
    expect(targetSaw(action.evidence)).toEqual([expect.objectContaining({ method: 'PUT', path: 'incoming/exfil/data.bin', bytes: payload.length })]);
  });

  it('MON-037 runtime_temporary_dns_server replaces the dns action’s server for the monitor’s runs', async () => {
    // The Action's own server is outside the two actors: alone, it cannot run.
    const [google] = await w.server.db.query<{ id: number }>(`insert into dns_servers (name, address) values ('Outside resolver', '192.0.2.53') on conflict (address) do update set name = excluded.name returning id`);
    const outside = await insertAction(w.server.db, 'dns', { query_type: 'A', domain: 'c2.vigil-monitor.example', dns_server_id: google!.id }, 'DNS via an outside server');
    const plain = await createMonitor('DNS as defined', outside, {});
    expect(plain.statusCode, plain.body).toBe(201);
    const asDefined = await runNow(plain.json<MonitorDetail>().id);
    expect([asDefined.action.status, asDefined.action.blocked_msg]).toEqual([
      'incompatible',
      'The DNS server Outside resolver (192.0.2.53) is not an address of the source or destination actor, and actors query no address outside the two.',
    ]);

    // The monitor names the destination actor's address: the destination answers, the source checks its record.
    const byAddress = await createMonitor('DNS via the destination address', outside, { runtime: { runtime_temporary_dns_server: DST_ADDRESS } });
    expect(byAddress.statusCode, byAddress.body).toBe(201);
    const viaAddress = await runNow(byAddress.json<MonitorDetail>().id);
    expect([viaAddress.action.status, viaAddress.action.blocked], viaAddress.action.blocked_msg ?? '').toEqual(['ran', false]);
    expect(viaAddress.details.dns_server).toMatchObject({ address: DST_ADDRESS, port: 53 });
    expect(viaAddress.action.evidence.source).toMatchObject({ server: DST_ADDRESS, rcode: 'NOERROR', answers: [`A ${DST_ADDRESS}`] });
    expect(targetSaw(viaAddress.action.evidence)).toEqual([expect.objectContaining({ name: 'c2.vigil-monitor.example', type: 'A' })]);

    // By the entry's name, on an Action with the Default server (which would ask the actor's own resolver).
    const defaultServer = await insertAction(w.server.db, 'dns', { query_type: 'TXT', domain: 'txt.vigil-monitor.example', dns_server_id: null }, 'DNS via the default server');
    const byName = await createMonitor('DNS via Destination Actor', defaultServer, { runtime: { runtime_temporary_dns_server: 'Destination Actor' } });
    expect(byName.statusCode, byName.body).toBe(201);
    const viaName = await runNow(byName.json<MonitorDetail>().id);
    expect([viaName.action.status, viaName.action.blocked], viaName.action.blocked_msg ?? '').toEqual(['ran', false]);
    expect(viaName.action.evidence.source).toMatchObject({ server: DST_ADDRESS, answers: ['TXT vigil-actor'] });

    // A value that names no server is refused, and nothing is saved.
    const bad = await createMonitor('DNS via nowhere', outside, { runtime: { runtime_temporary_dns_server: 'not a server' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors['steps[0].actions[0].runtime.runtime_temporary_dns_server']).toEqual([
      "runtime_temporary_dns_server must be 'Destination Actor', the name or address of a DNS server, or an IP address with an optional :port.",
    ]);
    expect((await w.server.db.query(`select 1 from monitors where name = 'DNS via nowhere'`)).length).toBe(0);
  });
});
