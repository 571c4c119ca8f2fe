/**
 * The real director process and two real actor processes (actor/main.ts) on this worker's two
 * loopback addresses (loopback.ts): a sequence runs between them, and a director killed with SIGKILL mid-job loses no job.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { ensureAdmin } from '../../server/seed/users';
import { createBulkToken } from '../../server/engine/secrets';
import { freePort } from '../../e2e/director';
import { insertAction, insertSimulation } from './engine-helpers';
import { ADMIN, HttpSession, dropProcessDb, openProcessDb, startActorProcess, startDirectorProcess, stopProcess, until, type Proc } from './processes';
import { DST_ADDRESS, SRC_ADDRESS } from './loopback';

interface JobStatus {
  status: string;
  status_reason: string | null;
  progress: number;
  actions: { name: string; action_type: string; status: string; blocked: boolean | null; blocked_msg: string | null }[];
}

const ENGINE_ENV = { ENGINE_TICK_MS: '100', ENGINE_HEARTBEAT_MS: '500', ENGINE_OFFLINE_AFTER_MS: '8000', DETECTION_WINDOW_MS: '300' };
const FINAL = ['completed', 'errored', 'cancelled'];

let dataDir = '';
let port = 0;
let director: Proc | null = null;
const actors: Proc[] = [];
let http: HttpSession;
const ids = { sequence: 0, sleep: 0, socket: 0, src: 0, dst: 0 };

const socketDetails = (p: number) => ({ comm_type: 'tcp', server_port: p, steps: [{ data_type: 'ascii', request: 'hello', response: 'world' }] });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-kill-'));
  // The content and a bulk token go into the director's database before it starts.
  const db = await openProcessDb(dataDir);
  await migrate(db);
  await ensureAdmin(db, ADMIN.email, ADMIN.password);
  const scan = await insertAction(db, 'port_scan', { ports_list: '47301,47302,#47303', sleep_timer: 0, randomize_scan: false });
  const socket = await insertAction(db, 'socket', socketDetails(47310));
  const site = await insertAction(db, 'website', {
    server_port: 47320,
    http_ver: '1.1',
    use_https: false,
    steps: [{ request: 'GET /a HTTP/1.1', req_headers: '', request_body: '', resp_code: 200, resp_headers: 'Content-Type: text/html', response: '<h1>hi</h1>' }],
  });
  ids.sequence = await insertSimulation(db, 'sequence', [[scan], [socket], [site]]);
  ids.sleep = await insertAction(db, 'sleep', { sleep_ms: 4000 });
  ids.socket = await insertAction(db, 'socket', socketDetails(47330));
  const { token } = await createBulkToken(db, { name: 'kill test' });
  await db.close();

  port = await freePort();
  director = await startDirectorProcess(dataDir, port, ENGINE_ENV);
  const url = `http://127.0.0.1:${port}`;
  for (const [i, address] of [SRC_ADDRESS, DST_ADDRESS].entries()) {
    actors.push(await startActorProcess(url, token, `proc-actor-${i + 1}`, address, path.join(dataDir, `actor-${i + 1}.json`)));
  }
  http = new HttpSession(url);
  await http.signIn();
  const online = await until('both actor processes are online', async () => {
    const res = await http.call<{ data: { id: number; name: string; status: string }[] }>('GET', '/run/actors.json');
    const on = res.body.data.filter((a) => a.status === 'online');
    return on.length === 2 ? on : undefined;
  });
  ids.src = online.find((a) => a.name === 'proc-actor-1')?.id ?? 0;
  ids.dst = online.find((a) => a.name === 'proc-actor-2')?.id ?? 0;
}, 180_000);

afterAll(async () => {
  for (const a of actors) await stopProcess(a);
  await stopProcess(director);
  if (dataDir) await dropProcessDb(dataDir);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function run(kind: 'actions' | 'sequences', id: number): Promise<number> {
  const res = await http.call<{ job_id: number; error?: string }>('POST', `/run/${kind}/${id}.json`, { attack_node_id_1: ids.src, target_node_id_1: ids.dst });
  expect(res.status, res.body.error).toBe(201);
  return res.body.job_id;
}

const statusOf = async (jobId: number) => (await http.call<JobStatus>('GET', `/run/jobs/${jobId}/status.json`)).body;
const reach = (jobId: number, statuses: string[], timeoutMs = 90_000) =>
  until(`job ${jobId} reaches ${statuses.join('/')}`, async () => {
    const s = await statusOf(jobId);
    return statuses.includes(s.status) ? s : undefined;
  }, timeoutMs);

describe('real director and actor processes', () => {
  it('JOB-047 two actor processes on two loopback addresses run a sequence of port_scan, socket and website to completion with results', async () => {
    const job = await reach(await run('sequences', ids.sequence), FINAL);
    expect(job.status).toBe('completed');
    expect(job.progress).toBe(100);
    expect(job.actions.map((a) => [a.action_type, a.status])).toEqual([
      ['port_scan', 'ran'],
      ['socket', 'ran'],
      ['website', 'ran'],
    ]);
    const [scan, socket, site] = job.actions;
    // The '#' port is expected unreachable: the target does not open it, so the scan is blocked there.
    expect(scan?.blocked).toBe(true);
    expect(scan?.blocked_msg).toContain('47303');
    expect(socket?.blocked).toBe(false);
    expect(site?.blocked).toBe(false);
  }, 120_000);

  it('JOB-047 a director killed with SIGKILL mid-job and started again on the same DATA_DIR loses no accepted job: the running one resumes or ends errored with a reason', async () => {
    const running = await run('actions', ids.sleep);
    // Accepted while the source actor is busy: waits in the database.
    const queued = await run('actions', ids.socket);
    // Running means the source actor process has claimed the work.
    await reach(running, ['running']);
    const killed = director;
    killed?.child.kill('SIGKILL');
    await killed?.exited();
    expect(killed?.child.signalCode).toBe('SIGKILL');

    director = await startDirectorProcess(dataDir, port, ENGINE_ENV);
    await http.signIn();
    const first = await reach(running, FINAL);
    console.log(`after the kill the running job ended ${first.status}${first.status_reason ? `: ${first.status_reason}` : ''}`);
    if (first.status === 'completed') expect(first.actions[0]?.status).toBe('ran');
    else {
      expect(first.status).toBe('errored');
      expect(first.status_reason ?? first.actions[0]?.blocked_msg ?? '').not.toBe('');
    }
    const second = await reach(queued, FINAL);
    expect(second.status).toBe('completed');
    expect(second.actions.map((a) => [a.status, a.blocked]), JSON.stringify(second)).toEqual([['ran', false]]);
    // Both actors are still the same registered actors, online.
    const listed = await http.call<{ data: { id: number; status: string }[] }>('GET', '/run/actors.json');
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect(listed.body.data.sort(byId).map((a) => [a.id, a.status])).toEqual([
      [ids.src, 'online'],
      [ids.dst, 'online'],
    ].sort((a, b) => Number(a[0]) - Number(b[0])));
  }, 180_000);
});
