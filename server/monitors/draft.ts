/**
 * A new monitor's starting body: from a simulation (its steps become groups, the simulation header's
 * Monitor button) or from Action library picks (one group). Expectations start at blocked 'Yes',
 * detected 'Does not matter'; the first run is the next whole hour today, repeating daily.
 * The spec does not show the defaults.
 */
import type { Db } from '../db/index';
import { badRequest, notFound } from '../http-errors';
import { newActionBody, type ActionInfo, type MonitorBody, type MonitorDraftAnswer } from '../../src/api/contracts/monitors';
import { wallMs } from '../time/wall-clock';

const actionBody = newActionBody;

const group = (name: string, ids: number[]): MonitorBody['steps'][number] => ({
  name,
  run_between: 'node',
  attack_node: null,
  attack_zone: null,
  target_node: null,
  target_zone: null,
  from_email_profile: null,
  to_email_profile: null,
  scan_interfaces: [],
  proxy_comm: false,
  use_ip_addresses: false,
  action_user_profile: null,
  interactive_desktop_session: false,
  require_interactive: false,
  actions: ids.map(actionBody),
});

/** The next whole hour in the timezone, as 'YYYY-MM-DD HH:mm'. */
export function nextWholeHour(tz: string, now = Date.now()): string {
  const wall = wallMs(now, tz);
  const next = Math.floor(wall / 3_600_000) * 3_600_000 + 3_600_000;
  return new Date(next).toISOString().slice(0, 16).replace('T', ' ');
}

function base(name: string, description: string, tz: string, simulationId: number | null): Omit<MonitorBody, 'steps'> {
  return {
    name,
    description,
    monitor_group: null,
    new_monitor_group: '',
    monitor_runtime: nextWholeHour(tz),
    timezone: tz,
    repeat_job_period_number: 1,
    repeat_job_period_type: 'days',
    repeat_week_days: '',
    repeat_monthly_frequency: '',
    repeat_day_of_the_week: '',
    extra_sleep: 0,
    detection_timeout_seconds: 30,
    simulation_id: simulationId,
  };
}

/** The body with the name, type and VID of each of its Actions. */
export async function withActionInfo(db: Db, body: MonitorBody): Promise<MonitorDraftAnswer> {
  const ids = [...new Set(body.steps.flatMap((g) => g.actions.map((a) => a.action_id)))];
  const rows = await db.query<ActionInfo & { id: number }>('select id, name, action_type, vid, require_protected from actions where id = any($1::int[])', [ids]);
  return { ...body, action_info: Object.fromEntries(rows.map(({ id, ...info }) => [String(id), info])) };
}

export async function draftFromSimulation(db: Db, simulationId: number, tz: string): Promise<MonitorBody> {
  const [sim] = await db.query<{ id: number; name: string; description: string }>('select id, name, description from simulations where id = $1', [simulationId]);
  if (!sim) throw notFound(`Simulation ${simulationId} does not exist.`);
  const rows = await db.query<{ step_id: number; step_name: string; position: number; action_id: number }>(
    `select st.id as step_id, st.name as step_name, st.position, sa.action_id from simulation_steps st join simulation_step_actions sa on sa.step_id = st.id
      where st.simulation_id = $1 order by st.position, sa.position`,
    [simulationId],
  );
  if (!rows.length) throw badRequest(`${sim.name} has no actions to monitor.`);
  const steps: MonitorBody['steps'] = [];
  let last: number | null = null;
  for (const r of rows) {
    if (r.step_id !== last) steps.push(group(r.step_name || `Group ${r.position}`, []));
    last = r.step_id;
    steps.at(-1)?.actions.push(actionBody(r.action_id));
  }
  return { ...base(`Monitor: ${sim.name}`.slice(0, 255), sim.description, tz, sim.id), steps };
}

export async function draftFromActions(db: Db, actionIds: number[], tz: string): Promise<MonitorBody> {
  const found = await db.query<{ id: number; name: string }>('select id, name from actions where id = any($1::int[])', [actionIds]);
  const known = new Set(found.map((a) => a.id));
  const missing = actionIds.filter((id) => !known.has(id));
  if (missing.length) throw badRequest(`These actions do not exist: ${missing.join(', ')}`);
  const name = found.length === 1 ? `Monitor: ${found[0]?.name}` : `Monitor of ${found.length} Actions`;
  return { ...base(name.slice(0, 255), 'Monitor generated from Action library selection.', tz, null), steps: [group('Group 1', actionIds)] };
}
