import { ERROR_REASONS, ranResult } from './job-results';
import { DAY, HOUR, iso, type Rng } from './random';
import type { SimulationSet } from './simulations';
import type {
  ActionRow,
  ActionType,
  ActionUserProfileRow,
  DeviceRow,
  IntegrationRow,
  JobActionEventRow,
  JobActionRow,
  JobActionStatus,
  JobRow,
  JobStatus,
  JobStepRow,
  NodeRow,
} from './types';

/** Statuses of the newest jobs, oldest first: the live part of the job list. */
const LIVE_TAIL: readonly JobStatus[] = ['completed', 'sleeping', 'running', 'pending', 'waiting', 'completed', 'preparing', 'reverting', 'errored', 'running', 'pending', 'cancelled', 'running'];
const ASSESSMENTS = ['Q2 Ransomware Readiness Assessment', 'Quarterly Control Validation', 'Purple Team Week - Spring', 'PCI DSS 11.4 Segmentation Test', 'Cloud Posture Baseline'];
const PIPELINES = ['Splunk HEC', 'Executive Dashboard', 'ServiceNow SecOps'];
const SCHEDULED_SIMULATION = 'Daily Hygiene Check';
const SINGLE_ACTOR_TYPES: readonly ActionType[] = ['dns', 'host_cli', 'cloud'];

export interface JobInputs {
  rng: Rng;
  now: number;
  count: number;
  userIds: readonly number[];
  actions: readonly ActionRow[];
  sims: SimulationSet;
  nodes: readonly NodeRow[];
  devices: readonly DeviceRow[];
  integrations: readonly IntegrationRow[];
  profiles: readonly ActionUserProfileRow[];
  /** File names attached to each action, by action id. */
  attachments: ReadonlyMap<number, readonly string[]>;
}

export interface JobSet {
  jobs: JobRow[];
  job_steps: JobStepRow[];
  job_actions: JobActionRow[];
  job_action_events: JobActionEventRow[];
}

interface PlannedStep {
  step_id: number | null;
  name: string;
  actions: ActionRow[];
}

function planSimulation(inp: JobInputs, simulationId: number): PlannedStep[] {
  const byId = new Map(inp.actions.map((a) => [a.id, a]));
  return inp.sims.simulation_steps
    .filter((s) => s.simulation_id === simulationId)
    .sort((a, b) => a.position - b.position)
    .map((s) => ({
      step_id: s.id,
      name: s.name,
      actions: inp.sims.simulation_step_actions
        .filter((x) => x.step_id === s.id)
        .sort((a, b) => a.position - b.position)
        .map((x) => byId.get(x.action_id))
        .filter((a): a is ActionRow => a !== undefined),
    }));
}

function pickNodes(r: Rng, nodes: readonly NodeRow[], actions: readonly ActionRow[]): { src: NodeRow | undefined; dst: NodeRow | undefined } {
  const usable = nodes.filter((n) => n.status !== 'pending');
  const of = (pred: (n: NodeRow) => boolean) => {
    const list = usable.filter(pred);
    return list.length ? r.pick(list) : undefined;
  };
  const types = new Set(actions.map((a) => a.action_type));
  if (types.has('cloud')) return { src: of((n) => n.node_type === 'cloud'), dst: undefined };
  if (types.has('email')) return { src: of((n) => n.node_type === 'email'), dst: of((n) => n.node_type === 'endpoint' && n.os_base === 'windows') };
  if (types.has('host_cli')) {
    const unix = actions.some((a) => a.action_type === 'host_cli' && ['bash', 'sh', 'python'].includes(a.details.shell));
    const os: NodeRow['os_base'] = unix ? 'linux' : 'windows';
    const protectedOnly = actions.some((a) => a.require_protected);
    return { src: of((n) => n.os_base === os && (protectedOnly ? n.node_type === 'protected' : n.node_type === 'endpoint')), dst: undefined };
  }
  if ([...types].some((t) => SINGLE_ACTOR_TYPES.includes(t))) return { src: of((n) => n.node_type === 'endpoint' || n.node_type === 'network'), dst: undefined };
  const src = of((n) => n.node_type === 'network' || (n.node_type === 'endpoint' && n.os_base === 'windows'));
  const dst = of((n) => (n.node_type === 'endpoint' || n.node_type === 'network' || n.node_type === 'protected') && n.security_zone_id !== src?.security_zone_id);
  return { src, dst };
}

/** Action statuses for a job's actions in run order, consistent with the job's status. */
function planStatuses(r: Rng, status: JobStatus, actions: readonly ActionRow[]): JobActionStatus[] {
  const n = actions.length;
  const cut = r.int(0, Math.max(0, n - 1));
  return actions.map((a, i) => {
    const done: JobActionStatus = a.disabled ? 'not run' : a.action_type === 'sleep' ? 'completed' : r.weighted<JobActionStatus>([['ran', 88], ['not run', 4], ['incompatible', 4], ['errored', 4]]);
    switch (status) {
      case 'completed':
        return done;
      case 'errored':
        return i < cut ? done : i === cut ? 'errored' : 'not run';
      case 'cancelled':
        return i < cut ? done : i === cut ? 'cancelled' : 'not run';
      case 'running':
      case 'waiting':
      case 'reverting':
        return i < cut ? done : i === cut ? status : 'pending';
      default:
        return 'pending';
    }
  });
}

export function buildJobs(inp: JobInputs): JobSet {
  const { rng, now, count } = inp;
  const out: JobSet = { jobs: [], job_steps: [], job_actions: [], job_action_events: [] };
  const runnable = inp.actions.filter((a) => a.approved && !a.decommissioned);
  const simWeights = inp.sims.simulations.map((s) => [s, s.name === SCHEDULED_SIMULATION ? 6 : s.name === 'Azure Identity Abuse' ? 0.3 : 1] as const);
  const tail = LIVE_TAIL.slice(Math.max(0, LIVE_TAIL.length - count));
  const history = count - tail.length;
  const span = 120 * DAY;
  const effectiveness = new Map(inp.actions.map((a) => [a.id, rng.fork(`eff:${a.vid}`).next()]));

  // Live jobs started minutes ago: keep every timestamp in the past.
  const ts = (t: number) => iso(Math.min(t, now - 1000));

  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const r = rng.fork(`job:${id}`);
    const live = i >= history;
    const status: JobStatus = live ? (tail[i - history] ?? 'pending') : r.weighted<JobStatus>([['completed', 80], ['errored', 11], ['cancelled', 9]]);
    const created = live ? now - (count - i) * 20 * 60_000 : now - span + Math.floor((i / Math.max(1, history)) * (span - DAY)) + r.int(0, 3 * HOUR);

    const sim = r.chance(0.6) ? r.weighted(simWeights) : undefined;
    const single = sim ? undefined : r.pick(runnable);
    const steps: PlannedStep[] = sim ? planSimulation(inp, sim.id) : single ? [{ step_id: null, name: single.name, actions: [single] }] : [];
    const scheduled = sim?.name === SCHEDULED_SIMULATION || r.chance(0.1) || inp.userIds.length === 0;
    const flat = steps.flatMap((s) => s.actions);
    const statuses = planStatuses(r, status, flat);

    const notStarted = status === 'sleeping' || status === 'pending';
    const started = notStarted ? null : created + r.int(5, 180) * 1000;
    let clock = started ?? created;
    let k = 0;
    let finishedCount = 0;
    for (const [g, step] of steps.entries()) {
      const stepId = out.job_steps.length + 1;
      const { src, dst } = pickNodes(r, inp.nodes, step.actions);
      const profile = step.actions.some((a) => a.action_type === 'host_cli') && r.chance(0.35) ? r.pick(inp.profiles) : undefined;
      out.job_steps.push({
        id: stepId,
        job_id: id,
        step_id: step.step_id,
        group_order: g + 1,
        name: step.name,
        source_node_id: src?.id ?? null,
        destination_node_id: dst?.id ?? null,
        action_user_profile_name: profile?.username ?? null,
        action_user_profile_friendly_name: profile?.friendly_name ?? null,
      });
      step.actions.forEach((a, position) => {
        const st = statuses[k++] ?? 'pending';
        const duration = a.action_type === 'sleep' ? (a.timeout_ms ?? 30000) : r.int(a.action_type === 'host_cli' ? 20 : 5, a.action_type === 'host_cli' ? 120 : 60) * 1000;
        const begun = st !== 'pending' && st !== 'not run' && st !== 'incompatible' && started !== null;
        const ends = begun && st !== 'running' && st !== 'waiting' && st !== 'reverting';
        const startedAt = begun ? clock : null;
        if (begun) clock += duration;
        if (['ran', 'completed', 'errored', 'cancelled', 'not run', 'incompatible'].includes(st)) finishedCount++;
        const row: JobActionRow = {
          id: out.job_actions.length + 1,
          job_step_id: stepId,
          job_id: id,
          action_id: a.id,
          position,
          sim_action_vid: a.vid,
          name: a.name,
          action_type: a.action_type,
          status: st,
          alerted: false,
          blocked: null,
          blocked_msg: null,
          detected_msg: null,
          reason: null,
          events: 0,
          suspect_events: 0,
          disabled: a.disabled,
          evidence: {},
          started_at: startedAt === null ? null : ts(startedAt),
          finished_at: ends ? ts(clock) : null,
        };
        if (st === 'ran') {
          const { result, events } = ranResult(r, a, effectiveness.get(a.id) ?? 0.5, { devices: inp.devices, integrations: inp.integrations, node: src, at: ts(clock), files: inp.attachments.get(a.id) ?? [] });
          Object.assign(row, result);
          for (const e of events) out.job_action_events.push({ id: out.job_action_events.length + 1, job_action_id: row.id, ...e, occurred_at: ts(clock + r.int(5, 240) * 1000) });
        } else if (st === 'errored') {
          row.evidence = { error: r.pick(ERROR_REASONS) };
        } else if (st === 'not run') {
          row.evidence = { reason: a.disabled ? 'Action disabled.' : status === 'cancelled' ? 'The job was cancelled.' : status === 'errored' ? 'A previous action errored.' : 'Skipped: a prerequisite action did not complete.' };
        } else if (st === 'incompatible') {
          row.evidence = { reason: `${src?.name ?? 'The actor'} does not support ${a.action_type} Actions.` };
        } else if (st === 'completed') {
          row.evidence = { summary: `Slept ${Math.round((a.timeout_ms ?? 0) / 1000)} seconds.` };
        }
        // As the director's list answers it: why the action did not run or ended so.
        if (st === 'not run' || st === 'incompatible' || st === 'errored' || st === 'cancelled') {
          const ev = row.evidence as { reason?: string; error?: string };
          row.reason = ev.reason ?? ev.error ?? row.blocked_msg;
        }
        out.job_actions.push(row);
      });
    }

    const finished = status === 'completed' || status === 'errored' || status === 'cancelled';
    const finishedAt = finished ? clock + r.int(10, 90) * 1000 : null;
    const published: 0 | 1 | 2 = !finished ? 0 : r.weighted<0 | 1 | 2>([[0, status === 'completed' ? 40 : 85], [1, 5], [2, status === 'completed' ? 55 : 10]]);
    const progress = status === 'completed' ? 100 : flat.length ? Math.floor((finishedCount / flat.length) * 100) : 0;
    out.jobs.push({
      id,
      name: sim?.name ?? single?.name ?? 'Empty job',
      status,
      progress: Math.min(progress, finished ? 100 : 99),
      simulation_id: sim?.id ?? null,
      action_id: single?.id ?? null,
      user_id: scheduled ? null : r.pick(inp.userIds),
      assessment_name: r.chance(0.25) ? r.pick(ASSESSMENTS) : null,
      published_status: published,
      latest_published_time: published === 2 && finishedAt !== null ? ts(finishedAt + r.int(1, 120) * 60_000) : null,
      latest_published_pipeline: published > 0 ? r.pick(PIPELINES) : null,
      created_at: ts(created),
      started_at: started === null ? null : ts(started),
      finished_at: finishedAt === null ? null : ts(finishedAt),
      updated_at: ts(finishedAt ?? clock),
    });
  }
  return out;
}
