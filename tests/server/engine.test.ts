import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAction, insertSimulation, runJob, startEngineWorld, waitForAction, waitForJob, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS, SRC_ADDRESS } from './loopback';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
});
afterAll(async () => {
  await w?.close();
});

const run = (kind: 'actions' | 'sequences' | 'evaluations', id: number) => runJob(w, kind, id);

const socketDetails = (port: number, response = 'pong') => ({
  comm_type: 'tcp',
  server_port: port,
  steps: [
    { data_type: 'ascii', request: 'hello', response: 'world' },
    { data_type: 'ascii', request: 'ping', response },
  ],
});

describe('engine with two actors on loopback', () => {
  it('JOB-047 JOB-060 a sequence of one action of each network type completes with results', async () => {
    const ids = [
      await insertAction(w.server.db, 'port_scan', { ports_list: '47101,47102,#47103', sleep_timer: 0, randomize_scan: false }),
      await insertAction(w.server.db, 'socket', socketDetails(47110)),
      await insertAction(w.server.db, 'socket', { comm_type: 'udp', server_port: 47111, steps: [{ data_type: 'base64', request: 'aGk=', response: 'QUNL' }] }),
      await insertAction(w.server.db, 'website', {
        server_port: 47120,
        http_ver: '1.1',
        use_https: false,
        steps: [
          { request: 'GET /a HTTP/1.1', req_headers: 'Host: bad.example', request_body: '', resp_code: 200, resp_headers: 'Content-Type: text/html', response: '<h1>hi</h1>' },
          { request: 'POST /login HTTP/1.1', req_headers: 'Content-Type: text/plain', request_body: 'u=1', resp_code: 302, resp_headers: 'Location: /x', response: '' },
        ],
      }),
      await insertAction(w.server.db, 'web_request', {
        host: 'shop.example:47130',
        path: '/login.php',
        http_method: 'POST',
        encode_url: false,
        body: 'form:v:urlencoded:v:user=admin',
        request: { parameters: [], headers: [{ key: 'X-Test', value: '1' }], auto_content_length: true, auto_host_header: true },
        conditions: [
          { code: 403, response_regex: '', pass_fail_error: 'pass' },
          { code: 200, response_regex: 'OK', pass_fail_error: 'fail' },
        ],
      }),
    ];
    const sleepId = await insertAction(w.server.db, 'sleep', { sleep_ms: 100 });
    const simId = await insertSimulation(w.server.db, 'sequence', [ids, [sleepId]]);
    const jobId = await run('sequences', simId);
    const { job, actions } = await waitForJob(w.server.db, jobId);
    expect(job.status, job.status_reason ?? '').toBe('completed');
    expect(job.progress).toBe(100);
    expect(actions.map((a) => a.status)).toEqual(['ran', 'ran', 'ran', 'ran', 'ran', 'ran']);
    const [scan, tcp, udp, site, web] = actions;
    // The '#' port is not opened by the target: reported blocked, with per-port evidence.
    expect(scan?.blocked).toBe(true);
    expect(scan?.blocked_msg).toContain('47103');
    const scanned = (scan?.evidence.source as { ports: { port: number; result: string }[] }).ports;
    expect(scanned.map((p) => [p.port, p.result])).toEqual([
      [47101, 'open'],
      [47102, 'open'],
      [47103, 'refused'],
    ]);
    expect(tcp?.blocked).toBe(false);
    expect(udp?.blocked).toBe(false);
    expect(site?.blocked).toBe(false);
    expect(web?.blocked).toBe(false);
    expect(web?.blocked_msg).toContain('answered 200 (fail)');
  });

  it('a port scan where every port is open is not blocked; a single action job runs', async () => {
    const id = await insertAction(w.server.db, 'port_scan', { ports_list: '47140-47142', sleep_timer: 0, randomize_scan: true });
    const { job, actions } = await waitForJob(w.server.db, await run('actions', id));
    expect(job.status).toBe('completed');
    expect(actions[0]?.blocked).toBe(false);
    expect((actions[0]?.evidence.source as { open_ports: number[] }).open_ports.sort()).toEqual([47140, 47141, 47142]);
  });

  it('a sequence stops at the first errored step; an evaluation runs every step', async () => {
    // web_request whose condition says 'error' ends errored.
    const bad = await insertAction(w.server.db, 'web_request', {
      host: 'x:47150',
      path: '/',
      http_method: 'GET',
      encode_url: false,
      body: '',
      request: { parameters: [], headers: [], auto_content_length: true, auto_host_header: true },
      conditions: [{ code: 200, response_regex: '', pass_fail_error: 'error' }],
    });
    const ok = await insertAction(w.server.db, 'port_scan', { ports_list: '47151', sleep_timer: 0, randomize_scan: false });
    const seq = await waitForJob(w.server.db, await run('sequences', await insertSimulation(w.server.db, 'sequence', [[bad], [ok]])));
    expect(seq.job.status).toBe('errored');
    expect(seq.job.status_reason).toContain('Step 1 errored');
    expect(seq.actions.map((a) => a.status)).toEqual(['errored', 'not run']);
    const ev = await waitForJob(w.server.db, await run('evaluations', await insertSimulation(w.server.db, 'eval', [[bad], [ok]])));
    expect(ev.job.status).toBe('completed');
    expect(ev.actions.map((a) => a.status)).toEqual(['errored', 'ran']);
  });

  it('an action type the actor cannot perform ends incompatible with the reason', async () => {
    const id = await insertAction(w.server.db, 'cloud', { scripts: [] });
    const { actions } = await waitForJob(w.server.db, await run('actions', id));
    expect(actions[0]?.status).toBe('incompatible');
    expect(actions[0]?.blocked_msg).toContain('cannot perform cloud');
  });

  it('JOB-087 JOB-049 cancel through GET /jobs/{id}/cancel.json stops the running work on the actors within seconds', async () => {
    const id = await insertAction(w.server.db, 'sleep', { sleep_ms: 20_000 });
    const jobId = await run('actions', id);
    await waitForJob(w.server.db, jobId, ['running']);
    // Wait until the actor holds the work.
    for (let i = 0; i < 100; i++) {
      const [r] = await w.server.db.query<{ n: number }>(`select count(*)::int as n from engine_work where job_id = $1 and status = 'claimed'`, [jobId]);
      if (r?.n) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const t0 = Date.now();
    // The spec's GET changes state, so it needs the session's CSRF token; without it nothing changes.
    const refused = await w.server.call('GET', `/jobs/${jobId}/cancel.json`, { as: w.operator });
    expect(refused.statusCode).toBe(403);
    const cancel = await w.server.call('GET', `/jobs/${jobId}/cancel.json`, { as: w.operator, headers: { 'x-csrf-token': w.operator.csrfToken } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toEqual({ id: jobId, status: 'cancelled', stopped_actions: 1 });
    for (let i = 0; i < 100; i++) {
      const [r] = await w.server.db.query<{ status: string }>(`select status from job_actions where job_id = $1`, [jobId]);
      if (r?.status === 'cancelled') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const { job, actions } = await waitForJob(w.server.db, jobId, ['cancelled']);
    expect(job.status).toBe('cancelled');
    expect(actions[0]?.status).toBe('cancelled');
    expect(actions[0]?.evidence.reason).toMatch(/^Cancelled by /);
    // The actor dropped the work (no longer running anything).
    for (let i = 0; i < 60; i++) {
      const [r] = await w.server.db.query<{ status: string }>(`select status from engine_work where job_id = $1`, [jobId]);
      if (r?.status === 'aborted' && w.src.holding.length === 0) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(w.src.holding.length).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    const again = await w.server.call('GET', `/jobs/${jobId}/cancel.json`, { as: w.operator, headers: { 'x-csrf-token': w.operator.csrfToken } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(`Job ${jobId} is cancelled and can no longer be cancelled.`);
  });

  it('the run call refuses missing actors, unknown content and a viewer', async () => {
    // A two-actor action (a sleep-only step needs just the Source Actor).
    const id = await insertAction(w.server.db, 'socket', socketDetails(47199));
    const missing = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toContain('Destination Actor must be chosen');
    const same = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.src.nodeId } });
    expect(same.statusCode).toBe(400);
    const unknown = await w.server.call('POST', `/run/sequences/999999.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId } });
    expect(unknown.statusCode).toBe(404);
    const viewer = await w.server.signIn('viewer');
    const denied = await w.server.call('POST', `/run/actions/${id}.json`, { as: viewer, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId } });
    expect(denied.statusCode).toBe(403);
    const actors = await w.server.call('GET', '/run/actors.json', { as: w.operator });
    expect(actors.json<{ data: { name: string; status: string }[] }>().data.map((a) => [a.name, a.status])).toEqual([
      ['dst', 'online'],
      ['src', 'online'],
    ]);
  });
});

describe('what really happened decides blocked', () => {
  it('a socket step whose response differs (altered in path) is blocked with the step named', async () => {
    w.dst.tamper = (type, data) => (type === 'socket' && data.toString() === 'pong' ? Buffer.from('pwnd') : data);
    try {
      const id = await insertAction(w.server.db, 'socket', socketDetails(47170));
      const { actions } = await waitForJob(w.server.db, await run('actions', id));
      expect(actions[0]?.status).toBe('ran');
      expect(actions[0]?.blocked).toBe(true);
      expect(actions[0]?.blocked_msg).toBe('Step 2: the response differs from the expected one (altered content)');
      const steps = (actions[0]?.evidence.source as { steps: { result: string; received: string }[] }).steps;
      expect(steps.map((s) => [s.result, s.received])).toEqual([
        ['match', 'world'],
        ['differs', 'pwnd'],
      ]);
    } finally {
      w.dst.tamper = undefined;
    }
  });

  it('a website whose page is altered is blocked; an https website is served with TLS', async () => {
    const site = (port: number, https: boolean) => ({
      server_port: port,
      http_ver: '1.1',
      use_https: https,
      steps: [{ request: 'GET /p HTTP/1.1', req_headers: '', request_body: '', resp_code: 200, resp_headers: 'Content-Type: text/html', response: 'payload' }],
    });
    const tls = await waitForJob(w.server.db, await run('actions', await insertAction(w.server.db, 'website', site(47180, true))));
    expect(tls.actions[0]?.status).toBe('ran');
    expect(tls.actions[0]?.blocked).toBe(false);
    w.dst.tamper = (type, data) => (type === 'website' ? Buffer.from('stripped by proxy') : data);
    try {
      const { actions } = await waitForJob(w.server.db, await run('actions', await insertAction(w.server.db, 'website', site(47181, false))));
      expect(actions[0]?.blocked).toBe(true);
      expect(actions[0]?.blocked_msg).toContain('altered content');
    } finally {
      w.dst.tamper = undefined;
    }
  });
});

describe('detection from security-tool events', () => {
  beforeAll(() => void (w.engine.opts.detectionWindowMs = 5000));
  afterAll(() => void (w.engine.opts.detectionWindowMs = 300));
  it('a posted webhook event makes the action detected; unrelated events and wrong tokens do not count', async () => {
    const admin = await w.server.signIn('admin');
    const [integration] = await w.server.db.query<{ id: number }>(`insert into integrations (name, type) values ('Suricata lab', 'ids') returning id`);
    const id = integration?.id ?? 0;
    const tokenRes = await w.server.call('POST', `/integrations/${id}/events_token.json`, { as: admin });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const token = tokenRes.json<{ token: string }>().token;

    const actionId = await insertAction(w.server.db, 'port_scan', { ports_list: '47190', sleep_timer: 0, randomize_scan: false });
    // Events are posted during the detection window after the action, while the job still runs.
    const ja = await waitForAction(w.server.db, await run('actions', actionId), ['ran']);
    expect(ja.events).toBe(0);

    const post = (body: unknown, auth = `Bearer ${token}`) =>
      w.server.call('POST', `/integrations/${id}/events`, { body, csrf: false, headers: { authorization: auth } });
    const wrong = await post({ src_ip: SRC_ADDRESS }, 'Bearer nope');
    expect(wrong.statusCode).toBe(401);
    const eve = {
      timestamp: new Date().toISOString(),
      event_type: 'alert',
      src_ip: SRC_ADDRESS,
      src_port: 51000,
      dest_ip: DST_ADDRESS,
      dest_port: 47190,
      proto: 'TCP',
      alert: { signature: 'ET SCAN Possible port scan', severity: 2 },
    };
    const unrelated = { ...eve, src_ip: '10.9.9.9', dest_ip: '10.9.9.8' };
    const otherPort = { ...eve, dest_port: 9999, src_port: 9998 };
    const res = await post([eve, unrelated, otherPort]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ stored: 3, matched: 1 });
    const [row] = await w.server.db.query<{ events: number; alerted: boolean; detected_msg: string; suspect_events: number }>(
      'select events, alerted, detected_msg, suspect_events from job_actions where id = $1',
      [ja?.id],
    );
    // Severity 2 (Suricata's medium) is the event's severity; the event is detected, not merely suspicious.
    expect(row).toEqual({ events: 1, alerted: true, detected_msg: 'ET SCAN Possible port scan', suspect_events: 0 });
    const [ev] = await w.server.db.query<{ description: string; integration_id: number; alert: boolean; severity: string; suspicious: boolean }>(
      'select description, integration_id, alert, severity, suspicious from job_action_events where job_action_id = $1',
      [ja?.id],
    );
    expect(ev).toEqual({ description: 'ET SCAN Possible port scan', integration_id: id, alert: true, severity: 'medium', suspicious: false });
    // The same event again is another event; a malformed body is refused.
    expect((await post('[1]')).statusCode).toBe(400);
  });
});

describe('Suricata EVE log as an event source', () => {
  beforeAll(() => void (w.engine.opts.detectionWindowMs = 5000));
  afterAll(() => void (w.engine.opts.detectionWindowMs = 300));
  it('an alert appended to eve.json marks the matching action detected', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { EveTail, parseEveConfig } = await import('../../server/engine/eve-tail');
    const [integration] = await w.server.db.query<{ id: number }>(`insert into integrations (name, type) values ('Suricata EVE', 'ids') returning id`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-eve-')), 'eve.json');
    fs.writeFileSync(file, '{"event_type":"stats"}\n');
    const [source] = parseEveConfig(`${integration?.id}:${file}`);
    if (!source) throw new Error('no source');
    const tail = new EveTail(w.server.db, source, () => 5000);
    const id = await insertAction(w.server.db, 'socket', socketDetails(47210));
    const ran = await waitForAction(w.server.db, await run('actions', id), ['ran']);
    const actions = [ran];
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    const alert = {
      timestamp: new Date().toISOString(),
      event_type: 'alert',
      src_ip: SRC_ADDRESS,
      src_port: 40000,
      dest_ip: DST_ADDRESS,
      dest_port: 47210,
      proto: 'TCP',
      alert: { signature: 'ET POLICY suspicious socket', severity: 3 },
    };
    fs.appendFileSync(file, line({ event_type: 'flow', src_ip: SRC_ADDRESS, dest_ip: DST_ADDRESS }) + line(alert) + '{"event_type":"al');
    expect(await tail.poll()).toBe(1);
    fs.appendFileSync(file, 'ert"}\n');
    expect(await tail.poll()).toBe(0);
    const [row] = await w.server.db.query<{ events: number; alerted: boolean; detected_msg: string }>('select events, alerted, detected_msg from job_actions where id = $1', [
      actions[0]?.id,
    ]);
    expect(row).toEqual({ events: 1, alerted: true, detected_msg: 'ET POLICY suspicious socket' });
  });
});
