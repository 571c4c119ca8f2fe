/**
 * Demo monitors over the demo actors (issue 17): a DMZ perimeter monitor every 5 minutes and a weekly
 * lateral-movement monitor, plus two email sender profiles. Their history is made of real job rows
 * judged by the monitors' own judge (outcome.ts): passes, a step failing every week, and one drift (a
 * port the firewall blocked until the latest run). The demo actors never connected, so the live runs
 * of these monitors end errored with that reason until real actors take their place.
 */
import type { Db } from '../db/index';
import { newActionBody, type MonitorBody } from '../../src/api/contracts/monitors';
import { createMonitor } from '../monitors/service';
import { judgeRun } from '../monitors/outcome';

interface Facts {
  /** blocked per step, per run (oldest first). */
  blocked: boolean[][];
}

async function idOf(db: Db, sql: string, params: unknown[] = []): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(sql, params);
  return row?.id ?? null;
}

const actionOfType = (db: Db, type: string, skip = 0) =>
  idOf(db, `select id from actions where action_type = $1 and approved and not disabled and not decommissioned order by id offset $2 limit 1`, [type, skip]);

function monitorBody(name: string, src: number, dst: number, actions: number[], over: Partial<MonitorBody>): MonitorBody {
  const today = new Date().toISOString().slice(0, 10);
  return {
    name,
    description: '',
    monitor_group: null,
    new_monitor_group: '',
    monitor_runtime: `${today} 00:00`,
    timezone: 'UTC',
    repeat_job_period_number: 1,
    repeat_job_period_type: 'days',
    repeat_week_days: '',
    repeat_monthly_frequency: '',
    repeat_day_of_the_week: '',
    extra_sleep: 0,
    detection_timeout_seconds: 30,
    simulation_id: null,
    steps: [{ ...newGroup(src, dst), actions: actions.map((id) => newActionBody(id)) }],
    ...over,
  };
}

function newGroup(src: number, dst: number): Omit<MonitorBody['steps'][number], 'actions'> {
  return {
    name: 'Group 1',
    run_between: 'node',
    attack_node: src,
    attack_zone: null,
    target_node: dst,
    target_zone: null,
    from_email_profile: null,
    to_email_profile: null,
    scan_interfaces: [],
    proxy_comm: false,
    use_ip_addresses: false,
    action_user_profile: null,
    interactive_desktop_session: false,
    require_interactive: false,
  };
}

/** Past runs as completed jobs (ran by Scheduled Process), `everyMs` apart, judged in order. */
async function history(db: Db, monitorId: number, everyMs: number, facts: Facts): Promise<void> {
  const [m] = await db.query<{ name: string }>('select name from monitors where id = $1', [monitorId]);
  const steps = await db.query<{ ma_id: number; position: number; step_position: number; step_name: string; action_id: number; vid: string; name: string; action_type: string; src: number; dst: number }>(
    `select ma.id as ma_id, ma.position, ms.position as step_position, ms.name as step_name, a.id as action_id, a.vid, a.name, a.action_type,
            (ms.config->>'attack_node')::int as src, (ms.config->>'target_node')::int as dst
       from monitor_actions ma join monitor_steps ms on ms.id = ma.monitor_step_id join actions a on a.id = ma.action_id
      where ma.monitor_id = $1 order by ms.position, ma.position`,
    [monitorId],
  );
  const runs = facts.blocked.length;
  for (let r = 0; r < runs; r++) {
    const at = new Date(Date.now() - (runs - r) * everyMs);
    const done = new Date(at.getTime() + 40_000);
    const jobId = await idOf(
      db,
      `insert into jobs (name, status, progress, monitor_id, created_at, started_at, finished_at, updated_at) values ($1, 'completed', 100, $2, $3, $3, $4, $4) returning id`,
      [m?.name, monitorId, at.toISOString(), done.toISOString()],
    );
    const first = steps[0];
    const stepId = await idOf(db, `insert into job_steps (job_id, group_order, name, source_node_id, destination_node_id) values ($1, 1, $2, $3, $4) returning id`, [
      jobId, first?.step_name ?? '', first?.src, first?.dst,
    ]);
    for (const [i, s] of steps.entries()) {
      const blocked = facts.blocked[r]?.[i] ?? true;
      await db.query(
        `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status, blocked, blocked_msg, monitor_action_id, started_at, finished_at)
         values ($1, $2, $3, $4, $5, $6, $7, 'ran', $8, $9, $10, $11, $12)`,
        [stepId, jobId, s.action_id, s.position, s.vid, s.name, s.action_type, blocked, blocked ? 'Blocked: connection refused' : null, s.ma_id, at.toISOString(), done.toISOString()],
      );
    }
    await db.query(`insert into monitor_runs (job_id, monitor_id, scheduled_for, started_at, trigger) values ($1, $2, $3, $3, 'schedule')`, [jobId, monitorId, at.toISOString()]);
    await judgeRun(db, jobId ?? 0);
    await db.query('update monitors set last_job_id = $2 where id = $1', [monitorId, jobId]);
  }
}

/** Seeds the demo monitors (once); returns how many were added. */
export async function seedDemoMonitors(db: Db): Promise<number> {
  const [exists] = await db.query('select 1 from monitors limit 1');
  if (exists) return 0;
  await db.query(`insert into email_profiles (name, kind, address) values ('Finance IMAP mailbox', 'imap', 'finance@example.com'), ('Graph API sender', 'graph_api', 'alerts@example.com') on conflict do nothing`);
  const node = (name: string) => idOf(db, 'select id from nodes where name = $1', [name]);
  const [attacker, web, workstation, dc] = await Promise.all([node('EXT-ATTACKER-01'), node('UBU-WEB01'), node('WIN10-FIN-WS01'), node('SRV-DC01')]);
  const [scanA, scanB, web1, socket1, scanC] = await Promise.all([
    actionOfType(db, 'port_scan'), actionOfType(db, 'port_scan', 1), actionOfType(db, 'web_request'), actionOfType(db, 'socket'), actionOfType(db, 'website'),
  ]);
  if (!attacker || !web || !workstation || !dc || !scanA || !scanB || !web1 || !socket1 || !scanC) return 0;

  const perimeter = await createMonitor(
    db,
    monitorBody('DMZ perimeter checks', attacker, web, [scanA, scanB, web1], {
      description: 'External attacker against the public web server, every 5 minutes.',
      new_monitor_group: 'Perimeter',
      repeat_job_period_number: 5,
      repeat_job_period_type: 'minutes',
    }),
    null,
  );
  // Every run blocked all three until the latest, where the second scan got through: drift.
  await history(db, perimeter, 5 * 60_000, { blocked: [[true, true, true], [true, true, true], [true, true, true], [true, true, true], [true, false, true]] });

  const lateral = await createMonitor(
    db,
    monitorBody('Weekly lateral movement', workstation, dc, [socket1, scanC], {
      description: 'Finance workstation to the domain controller, Mondays and Thursdays.',
      new_monitor_group: 'Endpoint',
      timezone: 'Europe/Paris',
      repeat_job_period_type: 'weeks',
      repeat_week_days: 'M,Th',
      monitor_runtime: `${new Date().toISOString().slice(0, 10)} 09:00`,
    }),
    null,
  );
  // The socket was never blocked (a standing failure, no drift); the website request always was.
  await history(db, lateral, 3.5 * 86_400_000, { blocked: [[false, true], [false, true], [false, true]] });
  return 2;
}
