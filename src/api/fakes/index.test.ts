import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPES,
  DEFAULT_NOW,
  DIMENSION_TYPES,
  FILE_RESTRICTIONS,
  JOB_ACTION_STATUSES,
  JOB_STATUSES,
  OPEN_RULESET_SOURCE,
  generateDemoData,
  type ActionType,
  type JobActionRow,
} from './index';

const data = generateDemoData();
const now = Date.parse(DEFAULT_NOW);

/** The form field names of actions.md section 3; the common ones (timeout_ms, require_protected...) are columns. */
const SPEC_FIELDS: Record<ActionType, string[]> = {
  dns: ['query_type', 'domain', 'dns_server_id'],
  captive_dns: ['query_type', 'query', 'response'],
  captive_ioc_url: ['urls'],
  email: ['subject', 'body', 'mime_text_type', 'block_matching_scheme'],
  file_transfer: [
    'file_transfer_library_id', 'compare_transfer', 'keep_after_compare', 'content_encoding', 'user_agent', 'method', 'app_layer', 'target_port',
    'tunnel_cidr', 'tunnel_protocol', 'dns_domain', 'dns_server_ip',
  ],
  socket: ['comm_type', 'server_port', 'steps'],
  website: ['server_port', 'http_ver', 'use_https', 'steps'],
  host_cli: [
    'action_user_profile_id', 'require_run_as_interactive', 'delivery_wait_time', 'delivery_failed_result', 'destination_exists_result', 'shell',
    'raw_text', 'cleanup_raw_text', 'separate_cleanup_shell', 'automatic_file_cleanup', 'execution_plan',
  ],
  port_scan: ['ports_list', 'sleep_timer', 'randomize_scan'],
  cloud: ['inputs', 'outputs', 'scripts'],
  pcap: ['upload', 'attacker_ip', 'destination_ip', 'bypass_http_check', 'anonymized_ip', 'anonymized_mac', 'file'],
  captive_ioc_pcap: ['upload', 'attacker_ip', 'destination_ip', 'bypass_http_check', 'anonymized_ip', 'anonymized_mac', 'file'],
  web_request: ['host', 'profile', 'path', 'http_method', 'encode_url', 'body', 'request', 'conditions'],
  sleep: [],
};

/** The label the job result display rules give an action result (jobs spec section 4). */
function display(a: JobActionRow): string {
  if (a.status === 'ran') {
    if (a.alerted) return 'Alerted';
    if (a.blocked !== null) return a.blocked ? 'Blocked' : 'Not Blocked';
    return a.events > 0 ? 'Events' : 'No Events';
  }
  if (a.status === 'not run' || a.status === 'incompatible') return 'Not Run';
  return a.status;
}

const ids = <T extends { id: number }>(rows: T[]) => new Set(rows.map((r) => r.id));

describe('generateDemoData', () => {
  it('is deterministic: the same seed and options give identical data', () => {
    expect(JSON.stringify(generateDemoData(1))).toBe(JSON.stringify(data));
    expect(JSON.stringify(generateDemoData(7, { now: 1_800_000_000_000, jobs: 50 }))).toBe(JSON.stringify(generateDemoData(7, { now: 1_800_000_000_000, jobs: 50 })));
  });

  it('varies with the seed', () => {
    const other = generateDemoData(2);
    expect(other.actions.map((a) => a.vid)).not.toEqual(data.actions.map((a) => a.vid));
    expect(other.jobs.map((j) => j.status)).not.toEqual(data.jobs.map((j) => j.status));
  });

  it('produces at least 60 actions covering every one of the 14 action types', () => {
    expect(data.actions.length).toBeGreaterThanOrEqual(60);
    expect(new Set(data.actions.map((a) => a.action_type))).toEqual(new Set(ACTION_TYPES));
  });

  it('fills type-specific details under exactly the spec field names', () => {
    for (const a of data.actions) expect(Object.keys(a.details).sort(), a.name).toEqual([...SPEC_FIELDS[a.action_type]].sort());
  });

  it('gives actions unique VIDs, mostly custom with some A1 vendor content', () => {
    const vids = data.actions.map((a) => a.vid);
    expect(new Set(vids).size).toBe(vids.length);
    for (const v of vids) expect(v).toMatch(/^A\d{3}-\d{3}$/);
    const vendor = vids.filter((v) => v.startsWith('A1')).length;
    expect(vendor).toBeGreaterThan(5);
    expect(vendor).toBeLessThan(vids.length / 2);
  });

  it('produces 300+ jobs in every job status, with results in every action run status', () => {
    expect(data.jobs.length).toBeGreaterThanOrEqual(300);
    expect(new Set(data.jobs.map((j) => j.status))).toEqual(new Set(JOB_STATUSES));
    expect(new Set(data.job_actions.map((a) => a.status))).toEqual(new Set(JOB_ACTION_STATUSES));
  });

  it('covers every result label the display rules distinguish', () => {
    const labels = new Set(data.job_actions.map(display));
    for (const l of ['Alerted', 'Blocked', 'Not Blocked', 'Events', 'No Events', 'Not Run', 'errored', 'cancelled', 'running', 'waiting', 'reverting', 'pending', 'completed']) {
      expect(labels, l).toContain(l);
    }
  });

  it('keeps job results consistent with the job status', () => {
    const byJob = new Map<number, JobActionRow[]>();
    for (const a of data.job_actions) byJob.set(a.job_id, [...(byJob.get(a.job_id) ?? []), a]);
    for (const j of data.jobs) {
      const st = (byJob.get(j.id) ?? []).map((a) => a.status);
      if (j.status === 'completed') expect(st.every((s) => ['ran', 'completed', 'not run', 'incompatible', 'errored'].includes(s))).toBe(true);
      if (['sleeping', 'pending', 'preparing'].includes(j.status)) expect(st.every((s) => s === 'pending')).toBe(true);
      if (['running', 'waiting', 'reverting'].includes(j.status)) expect(st).toContain(j.status);
      if (['completed', 'errored', 'cancelled'].includes(j.status)) expect(j.finished_at).not.toBeNull();
      else expect(j.finished_at).toBeNull();
      if (j.published_status === 2) expect(j.latest_published_time).not.toBeNull();
    }
  });

  it('attributes some jobs to no user (Scheduled Process) and the rest to the given users', () => {
    expect(data.jobs.some((j) => j.user_id === null)).toBe(true);
    expect(data.jobs.filter((j) => j.user_id !== null).every((j) => [1, 2, 3].includes(j.user_id ?? 0))).toBe(true);
    expect(generateDemoData(1, { userIds: [] }).jobs.every((j) => j.user_id === null)).toBe(true);
  });

  it('backs event counts with event rows', () => {
    const perAction = new Map<number, number>();
    for (const e of data.job_action_events) perAction.set(e.job_action_id, (perAction.get(e.job_action_id) ?? 0) + 1);
    for (const a of data.job_actions) expect(perAction.get(a.id) ?? 0).toBe(a.events + a.suspect_events);
  });

  it('builds the six dimension trees with unique param names per tree', () => {
    const roots = data.dimensions.filter((d) => d.parent_id === null);
    expect(roots.map((d) => d.type).sort()).toEqual([...DIMENSION_TYPES].sort());
    for (const t of DIMENSION_TYPES) {
      const names = data.dimensions.filter((d) => d.type === t).map((d) => d.param_name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBeGreaterThan(3);
    }
    expect(data.action_dimensions.length).toBe(data.actions.length * 6);
  });

  it('includes MITRE ATT&CK tactics and techniques with their real names', () => {
    const mitre = data.tags.filter((t) => t.class_name === 'mitre_attack');
    expect(mitre.find((t) => t.code === 'TA0001')?.name).toBe('Initial Access');
    expect(mitre.find((t) => t.code === 'TA0011')?.name).toBe('Command and Control');
    expect(mitre.find((t) => t.code === 'T1059.001')?.name).toBe('Command and Scripting Interpreter: PowerShell');
    expect(mitre.find((t) => t.code === 'T1003.001')?.name).toBe('OS Credential Dumping: LSASS Memory');
    for (const t of mitre) expect(t.code).toMatch(/^(TA\d{4}|T\d{4}(\.\d{3})?)$/);
    expect(mitre.filter((t) => t.code?.startsWith('TA'))).toHaveLength(14);
  });

  it('has library files in all three restrictions and never attaches a malicious file to a cloud action', () => {
    expect(new Set(data.file_library.map((f) => f.file_restrictions))).toEqual(new Set(FILE_RESTRICTIONS));
    const files = new Map(data.file_library.map((f) => [f.id, f]));
    const actions = new Map(data.actions.map((a) => [a.id, a]));
    for (const af of data.action_files) {
      if (actions.get(af.action_id)?.action_type === 'cloud') expect(files.get(af.file_id)?.file_restrictions).not.toBe('restricted_malicious');
    }
  });

  it('produces sequences and evaluations whose steps use library actions', () => {
    expect(new Set(data.simulations.map((s) => s.simulation_type))).toEqual(new Set(['sequence', 'eval']));
    const actionIds = ids(data.actions);
    const stepIds = ids(data.simulation_steps);
    for (const x of data.simulation_step_actions) {
      expect(actionIds.has(x.action_id)).toBe(true);
      expect(stepIds.has(x.step_id)).toBe(true);
    }
  });

  it('keeps every reference pointing at an existing row', () => {
    const nodeIds = ids(data.nodes);
    const zoneIds = ids(data.zones);
    const tagIds = ids(data.tags);
    const stepIds = ids(data.job_steps);
    const jobIds = ids(data.jobs);
    for (const n of data.nodes) {
      expect(zoneIds.has(n.security_zone_id)).toBe(true);
      if (n.sandbox_node_id !== null) expect(nodeIds.has(n.sandbox_node_id)).toBe(true);
    }
    for (const t of [...data.action_tags, ...data.node_tags, ...data.file_tags, ...data.simulation_tags]) expect(tagIds.has(t.tag_id)).toBe(true);
    for (const s of data.job_steps) {
      expect(jobIds.has(s.job_id)).toBe(true);
      for (const n of [s.source_node_id, s.destination_node_id]) if (n !== null) expect(nodeIds.has(n)).toBe(true);
    }
    for (const a of data.job_actions) expect(stepIds.has(a.job_step_id)).toBe(true);
    for (const d of data.devices) for (const i of d.interfaces) expect(zoneIds.has(i.zone_id)).toBe(true);
  });

  it('dates everything before the reference time', () => {
    const stamps = [
      ...data.jobs.flatMap((j) => [j.created_at, j.started_at, j.finished_at, j.latest_published_time, j.updated_at]),
      ...data.job_actions.flatMap((a) => [a.started_at, a.finished_at]),
      ...data.actions.flatMap((a) => [a.created_at, a.updated_at]),
    ].filter((s): s is string => s !== null);
    for (const s of stamps) expect(Date.parse(s)).toBeLessThan(now);
  });

  it('includes detection alerts from the open ruleset and Snort-style signatures', () => {
    expect(data.detection_alerts.some((a) => a.source === OPEN_RULESET_SOURCE)).toBe(true);
    expect(data.signatures.length).toBeGreaterThan(20);
    for (const s of data.signatures) expect(s.text).toMatch(/^alert (udp|tcp|http) .+ \(msg:"[^"]+"; .*sid:\d+; rev:\d+;\)$/);
  });

  it('scales the job count with the jobs option', () => {
    expect(generateDemoData(1, { jobs: 40 }).jobs).toHaveLength(40);
    expect(generateDemoData(1, { jobs: 1000 }).jobs).toHaveLength(1000);
  });
});
