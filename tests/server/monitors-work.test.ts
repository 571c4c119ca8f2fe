/**
 * What a monitor's configuration changes in the work its runs send to the actors, on the real engine
 * and loopback actors: the action configuration's runtime_* values replace the Action's own details
 * (and the actor performs with them), and the group's run-as user and Interactive Session follow the
 * run-as rules on the actor that performs the action (MON-103..106, MON-065).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorDetail } from '@/api/contracts/monitors';
import { RUN_AS_UNSUPPORTED_MESSAGE } from '@/api/contracts/run-as-selection';
import { fileTransferDetails, insertAction, insertLibraryFile, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';

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
});
