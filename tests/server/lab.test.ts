/**
 * The security lab for real (issue 23): `npm run lab` brings up namespaces, the nftables firewall,
 * ulogd2 and three actors registered with this director; the lab evaluation runs from the user actor
 * to the server actor; each Action's blocked/detected/alerted must be what lab/policy.nft says; then
 * `npm run lab -- --down` must leave no namespace, link, process, state or lab token.
 * Runs as root on a kernel with network namespaces and nf_tables (CI runs as root); skipped elsewhere
 * with the reason printed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startEngine } from '../../server/engine/index';
import { labLayout, namespacesOf } from '../../server/lab/layout';
import { DEFAULT_POLICY } from '../../server/lab/lab';
import { runLabCli } from '../../server/lab/run-cli';
import { parseExpectations } from '../../server/lab/policy';
import { labUnsupportedReason } from '../../server/lab/probe';
import { findProgram } from '../../server/lab/system';
import { LAB_EVALUATION_VID, seedLabEvaluation } from '../../server/seed/lab-evaluation';
import { EMAILS, PASSWORD, startTestServer, type Session, type TestServer } from './helpers';

// Its own prefix and /16, so a developer's lab (vigil-lab, 10.77) or another run does not collide.
const PREFIX = `vt${process.pid % 100000}`;
const SUBNET = `10.${200 + (process.pid % 50)}`;
const RUN_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-lab-test-'));
const layout = labLayout(PREFIX, SUBNET, RUN_DIR);

const reason = labUnsupportedReason(`${PREFIX}-probe`);
if (reason) console.log(`The security lab test is skipped: ${reason}`);

const lab = (args: string[], director: string) => runLabCli({ prefix: PREFIX, subnet: SUBNET, runDir: RUN_DIR, director, email: EMAILS.admin, password: PASSWORD }, args);

const namespacesLeft = () => execFileSync(findProgram('ip')!, ['netns', 'list']).toString().split('\n').filter((l) => l.startsWith(`${PREFIX}-`));
/** The firewall's rules that count packets, with their counters (nft's JSON output). */
function firewallRules(): { text: string; packets: number }[] {
  const out = execFileSync(findProgram('ip')!, ['netns', 'exec', layout.fwNs, findProgram('nft')!, '-j', 'list', 'ruleset']).toString();
  const items = (JSON.parse(out) as { nftables: { rule?: { expr: Record<string, unknown>[] } }[] }).nftables;
  return items.flatMap((i) => {
    const counter = i.rule?.expr.find((e) => 'counter' in e)?.counter as { packets: number } | undefined;
    return counter ? [{ text: JSON.stringify(i.rule!.expr).slice(0, 240), packets: counter.packets }] : [];
  });
}
/** The policy's rules with a counter (comment lines aside). */
const countingRules = (policy: string) => policy.split('\n').filter((l) => !l.trim().startsWith('#') && /\bcounter\b/.test(l)).length;
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.skipIf(reason !== null)('the security lab, for real', () => {
  let s: TestServer;
  let app: FastifyInstance;
  let url: string;
  let admin: Session;

  beforeAll(async () => {
    s = await startTestServer();
    app = s.app;
    await seedLabEvaluation(s.db);
    // A detection window longer than the director's 1 s file poll, so late firewall lines still match.
    startEngine(app, { tickMs: 100, detectionWindowMs: 3000 });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    admin = await s.signIn('admin');
  });

  afterAll(async () => {
    if (url && (namespacesLeft().length || fs.existsSync(layout.stateDir))) await lab(['--down'], url);
    await app?.close();
    await s?.close();
    fs.rmSync(RUN_DIR, { recursive: true, force: true });
  });

  it('up, the lab evaluation between lab actors agrees with the policy file, down leaves nothing', { timeout: 240_000 }, async () => {
    const up = await lab([], url);
    expect(up.code, up.output).toBe(0);
    expect(namespacesLeft().sort()).toEqual(namespacesOf(layout).sort());
    const state = JSON.parse(fs.readFileSync(layout.stateFile, 'utf8')) as { pids: Record<string, number> };
    const pids = Object.values(state.pids);
    expect(pids).toHaveLength(5);

    // Up again: idempotent (the policy is reloaded, nothing is rebuilt).
    const again = await lab([], url);
    expect(again.output).toContain('is already up');
    expect((JSON.parse(fs.readFileSync(layout.stateFile, 'utf8')) as { pids: Record<string, number> }).pids).toEqual(state.pids);

    const actors = await s.db.query<{ id: number; name: string }>(`select id, name from nodes where name like $1`, [`${PREFIX}-%`]);
    const id = (zone: string) => actors.find((a) => a.name === `${PREFIX}-${zone}`)!.id;
    const [sim] = await s.db.query<{ id: number }>('select id from simulations where vid = $1', [LAB_EVALUATION_VID]);
    const t0 = Date.now();
    // Step 1: user zone to server zone; step 2: user zone to the dmz.
    const aim = { attack_node_id_1: id('user'), target_node_id_1: id('server'), attack_node_id_2: id('user'), target_node_id_2: id('dmz') };
    const run = await s.call('POST', `/run/evaluations/${sim!.id}.json`, { as: admin, body: aim });
    expect(run.statusCode, run.body).toBe(201);
    const jobId = run.json<{ job_id: number }>().job_id;
    let status = '';
    while (Date.now() - t0 < 150_000) {
      status = (await s.call('GET', `/run/jobs/${jobId}/status.json`, { as: admin })).json<{ status: string }>().status;
      if (['completed', 'errored', 'cancelled'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const evalMs = Date.now() - t0;
    expect(status).toBe('completed');

    const results = await s.db.query<{ sim_action_vid: string; status: string; blocked: boolean; events: number; alerted: boolean; blocked_msg: string | null; destination: string }>(
      `select ja.sim_action_vid, ja.status, ja.blocked, ja.events, ja.alerted, ja.blocked_msg, n.name as destination
         from job_actions ja join job_steps st on st.id = ja.job_step_id join nodes n on n.id = st.destination_node_id
        where ja.job_id = $1 order by st.group_order, ja.position`,
      [jobId],
    );
    const expected = parseExpectations(fs.readFileSync(DEFAULT_POLICY, 'utf8'));
    expect(results.map((r) => r.sim_action_vid).sort()).toEqual(expected.map((e) => e.vid).sort());
    // Each Action ran to the zone its expectation names (to=dmz: step 2).
    expect(Object.fromEntries(results.map((r) => [r.sim_action_vid, r.destination]))).toEqual(Object.fromEntries(expected.map((e) => [e.vid, `${PREFIX}-${e.to}`])));
    const got = results.map((r) => ({ vid: r.sim_action_vid, blocked: r.blocked, detected: r.events > 0, alerted: r.alerted }));
    expect(got).toEqual(results.map((r) => {
      const e = expected.find((x) => x.vid === r.sim_action_vid)!;
      return { vid: e.vid, blocked: e.blocked, detected: e.detected, alerted: e.alerted };
    }));
    // The events are the firewall's, quoted with the lab's integration.
    const events = await s.db.query<{ description: string; name: string }>(
      `select e.description, i.name from job_action_events e join job_actions ja on ja.id = e.job_action_id join integrations i on i.id = e.integration_id where ja.job_id = $1`,
      [jobId],
    );
    expect(events.map((e) => e.description)).toContain('ALERT:critical Telnet between zones');
    expect(new Set(events.map((e) => e.name))).toEqual(new Set([`${PREFIX} firewall (nftables/ulogd)`]));
    // The Telnet rule's critical alert is a detected event with its severity, not a suspicious one.
    const telnet = await s.db.query<{ alert: boolean; severity: string; suspicious: boolean; suspect_events: number }>(
      `select e.alert, e.severity, e.suspicious, ja.suspect_events from job_action_events e join job_actions ja on ja.id = e.job_action_id
        where ja.job_id = $1 and ja.sim_action_vid = 'A900-023'`,
      [jobId],
    );
    expect(telnet.length).toBeGreaterThan(0);
    expect(telnet.every((t) => t.alert && t.severity === 'critical' && !t.suspicious && t.suspect_events === 0)).toBe(true);
    // Every rule of the policy that counts was met by the evaluation.
    const rules = firewallRules();
    expect(rules.length).toBe(countingRules(fs.readFileSync(DEFAULT_POLICY, 'utf8')));
    expect(rules.filter((r) => r.packets === 0).map((r) => r.text)).toEqual([]);

    const down = await lab(['--down'], url);
    expect(down.code, down.output).toBe(0);
    expect(namespacesLeft()).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    expect(fs.existsSync(layout.stateDir)).toBe(false);
    expect(await s.db.query(`select 1 from actor_bulk_tokens where name = $1`, [`lab:${PREFIX}`])).toEqual([]);
    expect(await s.db.query(`select 1 from nodes where name like $1`, [`${PREFIX}-%`])).toEqual([]);
    console.log(`security lab: up ${(up.ms / 1000).toFixed(1)} s, evaluation ${(evalMs / 1000).toFixed(1)} s (detection window 3 s), down ${(down.ms / 1000).toFixed(1)} s`);
  });
});
