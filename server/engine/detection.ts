/**
 * Detection: security-tool events (generic JSON webhook or Suricata EVE lines) are stored, then
 * matched to job actions by time (from the action's start to the end of the detection window after it)
 * and by the two actors' addresses and, when both sides know them, ports.
 */
import type { Db } from '../db/index';
import { EVENT_SEVERITIES, type EventSeverity } from '../../src/api/contracts/jobs';

export interface NormalEvent {
  occurred_at: string;
  src_ip: string | null;
  dest_ip: string | null;
  src_port: number | null;
  dest_port: number | null;
  proto: string | null;
  description: string;
  alert: boolean;
  /** Only suspected to belong to an action: the source says so (`suspicious: true`); never derived from severity. */
  suspicious: boolean;
  severity: EventSeverity | null;
  raw: string;
}

const s = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);
const port = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : null;
};

/**
 * A source's severity as one of EVENT_SEVERITIES: a name (low, medium, high, critical; also info/informational
 * as low and warning as medium), or a number on Suricata's scale, where 1 is the most severe (1 high,
 * 2 medium, 3 and above low). Null when there is none.
 */
export function severityOf(v: unknown): EventSeverity | null {
  if (typeof v === 'string' && v.trim() && !/^\d+$/.test(v.trim())) {
    const name = v.trim().toLowerCase();
    if ((EVENT_SEVERITIES as readonly string[]).includes(name)) return name as EventSeverity;
    if (name === 'info' || name === 'informational') return 'low';
    if (name === 'warning') return 'medium';
    return null;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1) return null;
  return n === 1 ? 'high' : n === 2 ? 'medium' : 'low';
}

/** Normalizes one event (generic fields or Suricata EVE JSON); null when it is not an object. */
export function normalizeEvent(e: unknown, now = new Date()): NormalEvent | null {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return null;
  const o = e as Record<string, unknown>;
  const alertObj = o.alert && typeof o.alert === 'object' ? (o.alert as Record<string, unknown>) : null;
  const ts = s(o.timestamp) ?? s(o.occurred_at) ?? s(o.time);
  const t = ts ? new Date(ts) : now;
  const description =
    s(alertObj?.signature) ?? s(o.description) ?? s(o.message) ?? s(o.signature) ?? (s(o.event_type) ? `${s(o.event_type)} event` : 'Security event');
  return {
    occurred_at: (Number.isNaN(t.getTime()) ? now : t).toISOString(),
    src_ip: s(o.src_ip) ?? s(o.source_ip) ?? s(o.src),
    dest_ip: s(o.dest_ip) ?? s(o.destination_ip) ?? s(o.dst),
    src_port: port(o.src_port ?? o.source_port),
    dest_port: port(o.dest_port ?? o.destination_port),
    proto: s(o.proto) ?? s(o.protocol),
    description,
    alert: o.event_type === 'alert' || alertObj !== null || o.alert === true,
    suspicious: o.suspicious === true,
    severity: severityOf(alertObj?.severity ?? o.severity),
    raw: JSON.stringify(e).slice(0, 20_000),
  };
}

interface Candidate {
  job_action_id: number;
  job_id: number;
  started_at: string;
  finished_at: string | null;
  src_addr: string | null;
  dst_addr: string | null;
  evidence: Record<string, unknown>;
  action_type: string;
}

/**
 * The detection window of a job's actions as an interval: its monitor's detection timeout
 * (detection_timeout_seconds, "Timeout for Monitor Event Detection"), else the director's default.
 */
export const windowOf = (jobIdSql: string, defaultMsSql: string) =>
  `(coalesce((select m.detection_timeout_seconds * 1000 from jobs wj join monitors m on m.id = wj.monitor_id where wj.id = ${jobIdSql}), ${defaultMsSql}::int) * interval '1 millisecond')`;

const CANDIDATE_SQL = `
  select ja.id as job_action_id, ja.job_id, ja.action_type, ja.started_at::text, ja.finished_at::text, sn.sim_address as src_addr, dn.sim_address as dst_addr, ja.evidence
    from job_actions ja
    join job_steps st on st.id = ja.job_step_id
    left join nodes sn on sn.id = st.source_node_id
    left join nodes dn on dn.id = st.destination_node_id`;

/** Ports the action used, from its evidence (port_scan ports, socket/http port). */
function portsOf(evidence: Record<string, unknown>): Set<number> {
  const out = new Set<number>();
  const src = (evidence.source ?? {}) as Record<string, unknown>;
  if (typeof src.port === 'number') out.add(src.port);
  if (Array.isArray(src.ports)) for (const p of src.ports as { connected_port?: number; port?: number }[]) {
    if (typeof p.connected_port === 'number') out.add(p.connected_port);
    if (typeof p.port === 'number') out.add(p.port);
  }
  return out;
}

/** 0: no match; otherwise higher is a better match (ports named by both sides, event inside the action's run). */
function matchScore(c: Candidate, e: NormalEvent): number {
  const ips = [e.src_ip, e.dest_ip].filter((x): x is string => !!x);
  if (!ips.length || !c.src_addr || c.action_type === 'sleep') return 0;
  const actors = new Set([c.src_addr, c.dst_addr].filter((x): x is string => !!x));
  // Two-actor action: every address the event names must be one of the actors; one-actor: the source must be named.
  if (c.dst_addr ? !ips.every((ip) => actors.has(ip)) : !ips.includes(c.src_addr)) return 0;
  const used = portsOf(c.evidence);
  const evPorts = [e.src_port, e.dest_port].filter((x): x is number => x !== null);
  if (used.size && evPorts.length && !evPorts.some((p) => used.has(p))) return 0;
  const t = Date.parse(e.occurred_at);
  const during = t >= Date.parse(c.started_at) - 2000 && (!c.finished_at || t <= Date.parse(c.finished_at) + 2000);
  return 1 + (used.size && evPorts.length ? 2 : 0) + (during ? 1 : 0);
}

/** The candidates an event belongs to: the best-scoring ones only. */
function best(cands: Candidate[], e: NormalEvent): Candidate[] {
  const scored = cands.map((c) => ({ c, s: matchScore(c, e) })).filter((x) => x.s > 0);
  const top = Math.max(0, ...scored.map((x) => x.s));
  return scored.filter((x) => x.s === top).map((x) => x.c);
}

async function link(db: Db, eventId: number, e: NormalEvent, integrationId: number, jobActionId: number): Promise<boolean> {
  const [row] = await db.query<{ event_id: number }>(
    `insert into engine_event_matches (event_id, job_action_id) values ($1, $2) on conflict do nothing returning event_id`,
    [eventId, jobActionId],
  );
  if (!row) return false;
  await db.query(
    `insert into job_action_events (job_action_id, integration_id, description, raw_event, suspicious, alert, severity, occurred_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [jobActionId, integrationId, e.description, e.raw, e.suspicious, e.alert, e.severity, e.occurred_at],
  );
  // events counts the detected events (the events modal lists them), suspect_events the suspicious ones (listed apart).
  await db.query(
    `update job_actions set events = events + $2::int, suspect_events = suspect_events + $3::int, alerted = alerted or $4, detected_msg = coalesce(detected_msg, $5) where id = $1`,
    [jobActionId, e.suspicious ? 0 : 1, e.suspicious ? 1 : 0, e.alert, e.description],
  );
  return true;
}

/**
 * Per database, how many times ingestEvents began storing events (the only way they enter: the
 * webhook, EVE and file sources), and that count when the database was last seen to hold none
 * (matchEventsForActions `alone`): it holds none while the two are equal.
 */
const ingests = new WeakMap<Db, number>();
const emptyAt = new WeakMap<Db, number>();

/** Stores events and matches each to the job actions running or recently finished at its time. Returns the number of matches. */
export async function ingestEvents(db: Db, integrationId: number, events: NormalEvent[], windowMs: number): Promise<{ stored: number; matched: number }> {
  let matched = 0;
  if (events.length) ingests.set(db, (ingests.get(db) ?? 0) + 1);
  for (const e of events) {
    const [row] = await db.query<{ id: number }>(
      `insert into integration_events (integration_id, occurred_at, src_ip, dest_ip, src_port, dest_port, proto, description, alert, suspicious, severity, raw_event)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [integrationId, e.occurred_at, e.src_ip, e.dest_ip, e.src_port, e.dest_port, e.proto, e.description, e.alert, e.suspicious, e.severity, e.raw],
    );
    if (!row) continue;
    // Source work claimed at most 10 minutes before the event (actions are bounded to 5 minutes).
    const candidates = await db.query<Candidate>(
      `${CANDIDATE_SQL}
        where ja.id in (select w.job_action_id from engine_work w
                         where w.role = 'source' and w.claimed_at between $1::timestamptz - interval '10 minutes' and $1::timestamptz + interval '2 seconds')
          and ja.started_at <= $1::timestamptz + interval '2 seconds'
          and coalesce(ja.finished_at, now()) + ${windowOf('ja.job_id', '$2')} >= $1::timestamptz`,
      [e.occurred_at, String(windowMs)],
    );
    for (const c of best(candidates, e)) if (await link(db, row.id, e, integrationId, c.job_action_id)) matched++;
  }
  return { stored: events.length, matched };
}

/**
 * When job actions end: match the events received during them (events arriving later match on arrival).
 * `alone`: no other director stores events in this database (PGlite), so once it is seen to hold none,
 * there is nothing to look for until ingestEvents stores some: a lab without a security tool's events
 * skipped this statement's 2.3 ms per action on PGlite (its WebAssembly runs in the director's thread).
 */
export async function matchEventsForActions(db: Db, jobActionIds: number[], windowMs: number, alone = false): Promise<number> {
  if (!jobActionIds.length) return 0;
  if (alone) {
    const seen = ingests.get(db) ?? 0;
    if (emptyAt.get(db) === seen) return 0;
    if (!(await db.query('select 1 from integration_events limit 1')).length) {
      // Unless events were stored meanwhile (their insert may have run after this read).
      if ((ingests.get(db) ?? 0) === seen) emptyAt.set(db, seen);
      return 0;
    }
  }
  // The events first, of every action at once: with none around the actions (the common case) that is the only statement.
  const events = await db.query<{ id: number; integration_id: number; job_action_id: number } & NormalEvent>(
    `select ja.id as job_action_id, e.id, e.integration_id, e.occurred_at::text, e.src_ip, e.dest_ip, e.src_port, e.dest_port, e.proto, e.description, e.alert, e.suspicious, e.severity, e.raw
       from job_actions ja cross join lateral (
              select e.id, e.integration_id, e.occurred_at, e.src_ip, e.dest_ip, e.src_port, e.dest_port, e.proto, e.description, e.alert, e.suspicious, e.severity, e.raw_event as raw
                from integration_events e
               where e.occurred_at between ja.started_at - interval '2 seconds' and coalesce(ja.finished_at, now()) + ${windowOf('ja.job_id', '$2')}
               order by e.occurred_at limit 1000) e
      where ja.id = any($1::int[]) and ja.started_at is not null
      order by ja.id, e.occurred_at`,
    [jobActionIds, String(windowMs)],
    { name: 'events-of-actions' },
  );
  let n = 0;
  for (const jobActionId of new Set(events.map((e) => e.job_action_id))) {
    n += await matchEvents(db, jobActionId, events.filter((e) => e.job_action_id === jobActionId));
  }
  return n;
}

async function matchEvents(db: Db, jobActionId: number, events: ({ id: number; integration_id: number } & NormalEvent)[]): Promise<number> {
  const [c] = await db.query<Candidate>(`${CANDIDATE_SQL} where ja.id = $1 and ja.started_at is not null`, [jobActionId]);
  if (!c) return 0;
  let n = 0;
  // Only events whose best match (among actions around their time) is this action.
  for (const e of events) {
    if (!matchScore(c, e)) continue;
    const around = await db.query<Candidate>(
      `${CANDIDATE_SQL} where ja.id in (select w.job_action_id from engine_work w where w.role = 'source'
         and w.claimed_at between $1::timestamptz - interval '10 minutes' and $1::timestamptz + interval '2 seconds')`,
      [e.occurred_at],
    );
    if (best(around, e).some((x) => x.job_action_id === jobActionId) && (await link(db, e.id, e, e.integration_id, jobActionId))) n++;
  }
  return n;
}
