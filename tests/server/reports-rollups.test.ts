import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { openTestDatabase, type TestDatabase } from './template';
import { prng, seedReportWorld } from './report-fixtures';
import { mitreTaam, results, timeSeries, treeMap } from '../../server/reports/service';
import { reportScope } from '../../server/reports/scope';
import { setJobRuleCompiler } from '../../server/jobs/rule-filter';
import { compileJobRules } from '../../server/filters/compile';
import { GROUP_KEYS, type GroupKey, type ResultRow } from '@/api/contracts/reports';

/**
 * The rollups (migration 017_reports_rollups.sql, server/reports/rollups.ts) answer exactly what the raw
 * job actions say: hand-counted figures on a few jobs placed on slice boundaries, then every grouping key,
 * time ranges cut inside months, days, hours and 5-minute slices, and time series, checked against an
 * aggregation done here in JavaScript over the job actions themselves, before and after job actions are
 * created, finish, gain events, move, and are deleted (live). Finally the triggers' rollups equal a rebuild.
 */

let tdb: TestDatabase;
let db: Db;

const STATUSES = ['ran', 'ran', 'ran', 'ran', 'not run', 'incompatible', 'errored', 'cancelled', 'pending'] as const;
const T0 = Date.parse('2026-02-27T00:00:00Z');
const SPAN = 70 * 86_400_000;

beforeAll(async () => {
  tdb = await openTestDatabase();
  db = tdb.db;
  await seedReportWorld(db, {
    nodes: [
      [1, 'n1', '', 1],
      [2, 'n2', '', 2],
      [3, 'n3', '', 2],
      [4, 'n4', '', null],
    ],
    actions: [
      [1, 'A1', 'Resolve', 'dns'],
      [2, 'A2', 'Stop EDR', 'host_cli'],
      [3, 'A3', 'Fetch', 'web_request'],
      [4, 'A4', 'Scan', 'port_scan'],
    ],
    actionTags: [
      [1, 903],
      [1, 905],
      [2, 904],
      [2, 906],
      [3, 901],
      [4, 905],
      [4, 906],
    ],
    simulations: [
      [1, 'S1', 'Sweep', 'sequence'],
      [2, 'S2', 'Eval', 'eval'],
    ],
  });
  await db.exec(`insert into monitors (id, name, monitor_runtime, repeat_job_period_number, repeat_job_period_type) values (1, 'DMZ', '2026-01-01 09:00', 5, 'minutes')`);
  // Hand-counted jobs on slice boundaries (ids 1-4), then 120 generated ones (ids 100+).
  await db.exec(`
    insert into jobs (id, name, status, simulation_id, created_at, started_at) values
      (1, 'Edge month', 'completed', 1, '2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z'),
      (2, 'Edge mid-day', 'completed', null, '2026-06-14T10:02:30Z', '2026-06-14T10:02:30Z'),
      (3, 'Edge day end', 'completed', 2, '2026-06-14T23:59:59.999Z', '2026-06-14T23:59:59.999Z'),
      (4, 'Edge next month', 'completed', null, '2026-07-01T00:00:00Z', '2026-07-01T00:00:00Z');
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (1, 1, 0, 1, 2), (2, 2, 0, 3, null), (3, 3, 0, 1, 3), (4, 4, 0, 2, 1);
    insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, alerted, blocked, events) values
      (1, 1, 1, 'A1', 'Resolve', 'dns', 'ran', false, true, 0),
      (1, 1, 2, 'A2', 'Stop EDR', 'host_cli', 'ran', true, false, 2),
      (2, 2, 3, 'A3', 'Fetch', 'web_request', 'ran', false, null, 0),
      (2, 2, 1, 'A1', 'Resolve', 'dns', 'not run', false, null, 0),
      (3, 3, 4, 'A4', 'Scan', 'port_scan', 'ran', false, false, 1),
      (4, 4, 1, 'A1', 'Resolve', 'dns', 'ran', false, true, 0);
  `);
  const rnd = prng(18);
  const jobs: string[] = [];
  const steps: string[] = [];
  const actions: string[] = [];
  for (let i = 0; i < 120; i++) {
    const id = 100 + i;
    // Times on round instants now and then (slice starts), otherwise anywhere, to the millisecond.
    const at = rnd() < 0.2 ? T0 + Math.floor(rnd() * (SPAN / 300_000)) * 300_000 : T0 + Math.floor(rnd() * SPAN);
    const sim = rnd() < 0.5 ? String(1 + Math.floor(rnd() * 2)) : 'null';
    const mon = rnd() < 0.25 ? '1' : 'null';
    jobs.push(`(${id}, 'Generated ${id}', 'completed', ${sim}, ${mon}, '${new Date(at).toISOString()}', '${new Date(at).toISOString()}')`);
    const src = 1 + Math.floor(rnd() * 4);
    const dst = rnd() < 0.3 ? 'null' : String(1 + Math.floor(rnd() * 4));
    steps.push(`(${id}, ${id}, 0, ${src}, ${dst})`);
    const n = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < n; k++) {
      const action = 1 + Math.floor(rnd() * 4);
      const type = ['dns', 'host_cli', 'web_request', 'port_scan'][action - 1];
      const status = STATUSES[Math.floor(rnd() * STATUSES.length)]!;
      const blocked = rnd() < 0.3 ? 'null' : rnd() < 0.5 ? 'true' : 'false';
      actions.push(`(${id}, ${id}, ${action}, 'A${action}', 'x', '${type}', '${status}', ${rnd() < 0.2}, ${blocked}, ${Math.floor(rnd() * 3) * (rnd() < 0.5 ? 1 : 0)})`);
    }
  }
  await db.exec(`
    insert into jobs (id, name, status, simulation_id, monitor_id, created_at, started_at) values ${jobs.join(', ')};
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values ${steps.join(', ')};
    insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, alerted, blocked, events) values ${actions.join(', ')};
  `);
});

afterAll(async () => {
  await tdb?.dispose();
});

// ---------------------------------------------------------------------------------------------
// The reference: every job action read back and counted here.

interface Fact {
  t: number;
  action_id: number | null;
  action_type: string;
  status: string;
  blocked: boolean | null;
  alerted: boolean;
  events: number;
  simulation_id: number | null;
  monitor_id: number | null;
  src: number | null;
  dst: number | null;
  src_zone: number | null;
  dst_zone: number | null;
}

async function facts(): Promise<Fact[]> {
  const rows = await db.query<Omit<Fact, 't'> & { job_time: string | Date }>(
    `select j.job_time, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, j.simulation_id, j.monitor_id,
       s.source_node_id as src, s.destination_node_id as dst, ns.security_zone_id as src_zone, nd.security_zone_id as dst_zone
     from job_actions a join jobs j on j.id = a.job_id join job_steps s on s.id = a.job_step_id
     left join nodes ns on ns.id = s.source_node_id left join nodes nd on nd.id = s.destination_node_id`,
  );
  return rows.map((r) => ({ ...r, t: new Date(r.job_time).getTime() }));
}

/** Action -> keys of the tag-based groupings, from the tags as they are now. */
async function tagKeys(): Promise<Record<'tag' | 'control' | 'tactic' | 'technique', Map<number, string[]>>> {
  const rows = await db.query<{ action_id: number; name: string; class_name: string; tag_type: string; code: string | null; tactic: string | null }>(
    `select at.action_id, t.name, t.class_name, t.tag_type, t.code, (select tac.code from tag_tactics tt join tags tac on tac.id = tt.tactic_tag_id where tt.tag_id = t.id limit 1) as tactic
     from action_tags at join tags t on t.id = at.tag_id`,
  );
  const out = { tag: new Map<number, string[]>(), control: new Map<number, string[]>(), tactic: new Map<number, string[]>(), technique: new Map<number, string[]>() };
  const add = (m: Map<number, string[]>, a: number, k: string | null) => {
    if (k && !(m.get(a) ?? []).includes(k)) m.set(a, [...(m.get(a) ?? []), k]);
  };
  for (const r of rows) {
    if (r.class_name !== 'mitre_attack') add(out.tag, r.action_id, r.name);
    if (r.tag_type === 'control') add(out.control, r.action_id, r.name);
    if (r.class_name === 'mitre_attack' && r.code?.startsWith('TA')) add(out.tactic, r.action_id, r.code);
    if (r.class_name === 'mitre_attack' && r.code && /^T\d/.test(r.code)) {
      add(out.technique, r.action_id, r.code);
      add(out.tactic, r.action_id, r.tactic);
    }
  }
  return out;
}

type Counts = { total: number; prevented: number; detected: number; alerted: number; missed: number; notRun: number; errored: number };
const zero = (): Counts => ({ total: 0, prevented: 0, detected: 0, alerted: 0, missed: 0, notRun: 0, errored: 0 });
function count(c: Counts, f: Fact): void {
  if (f.status === 'ran') {
    c.total++;
    if (f.blocked) c.prevented++;
    if (f.events > 0 || f.alerted) c.detected++;
    if (f.alerted) c.alerted++;
    if (!f.blocked && f.events === 0 && !f.alerted) c.missed++;
  }
  if (f.status === 'not run' || f.status === 'incompatible') c.notRun++;
  if (f.status === 'errored') c.errored++;
}

function keysOf(by: GroupKey, f: Fact, tags: Awaited<ReturnType<typeof tagKeys>>): string[] {
  const id = (v: number | null) => (v === null ? [] : [String(v)]);
  switch (by) {
    case 'action_type':
      return [f.action_type];
    case 'action':
      return id(f.action_id);
    case 'tag':
    case 'control':
    case 'tactic':
    case 'technique':
      return f.action_id === null ? [] : (tags[by].get(f.action_id) ?? []);
    case 'actor':
      return id(f.src);
    case 'destination_actor':
      return id(f.dst);
    case 'zone':
      return id(f.src_zone);
    case 'destination_zone':
      return id(f.dst_zone);
    case 'simulation':
      return f.simulation_id === null ? ['none'] : [String(f.simulation_id)];
    case 'monitor':
      return id(f.monitor_id);
  }
}

const inRange = (f: Fact, start: number, end: number) => f.t >= start && f.t <= end;

async function expected(by: GroupKey, start: number, end: number, keep: (f: Fact) => boolean = () => true) {
  const [all, tags] = await Promise.all([facts(), tagKeys()]);
  const rows = new Map<string, Counts>();
  const totals = zero();
  for (const f of all.filter((x) => inRange(x, start, end) && keep(x))) {
    count(totals, f);
    for (const k of keysOf(by, f, tags)) count(rows.get(k) ?? rows.set(k, zero()).get(k)!, f);
  }
  const sorted = [...rows].sort(([ka, a], [kb, b]) => b.total - a.total || (ka < kb ? -1 : ka > kb ? 1 : 0));
  return { totals, rows: sorted.map(([key, c]) => ({ key, ...c })) };
}

const counts = (r: ResultRow) => ({ total: r.total, prevented: r.prevented, detected: r.detected, alerted: r.alerted, missed: r.missed, notRun: r.notRun, errored: r.errored });
const iso = (t: number) => new Date(t).toISOString();

/** results() with a range query (either side may be left open) against the raw count over [lo, hi] (of the job actions `keep` keeps). */
async function expectResultsAsRaw(by: GroupKey, range: { start?: string; end?: string; week_days?: string; tz?: string }, lo: number, hi: number, keep?: (f: Fact) => boolean): Promise<void> {
  const a = await results(db, { ...range, group_by: by, limit: 500 });
  const e = await expected(by, lo, hi, keep);
  const label = `${by} ${range.start ?? '…'}..${range.end ?? '…'} ${range.week_days ?? ''} ${range.tz ?? ''}`;
  expect(counts(a.totals), label).toEqual(e.totals);
  // Ties keep the database's text order (collation), so rows are compared as sets.
  const byKey = (x: { key: string }, y: { key: string }) => x.key.localeCompare(y.key);
  expect(a.rows.map((r) => ({ key: r.key, ...counts(r) })).sort(byKey), label).toEqual([...e.rows].sort(byKey));
}

async function expectSameAsRaw(start: number, end: number, keys: readonly GroupKey[] = GROUP_KEYS): Promise<void> {
  for (const by of keys) await expectResultsAsRaw(by, { start: iso(start), end: iso(end) }, start, end);
}

async function expectSeriesSameAsRaw(start: number, end: number, points: number, days?: { week_days: string; tz: string; keep: (f: Fact) => boolean }): Promise<void> {
  const a = await timeSeries(db, { start: iso(start), end: iso(end), points, ...(days ? { week_days: days.week_days, tz: days.tz } : {}) });
  const all = await facts();
  const step = a.step_ms;
  const buckets = Array.from({ length: points }, zero);
  for (const f of all.filter((x) => inRange(x, start, end) && (!days || days.keep(x)))) count(buckets[Math.min(Math.floor((f.t - start) / step), points - 1)]!, f);
  expect(a.points.map(counts), `series ${iso(start)}..${iso(end)} / ${points} ${days?.week_days ?? ''} ${days?.tz ?? ''}`).toEqual(buckets);
}

/** The local weekday (0 Sunday .. 6 Saturday) of an instant, straight from Intl (not the director's wall-clock code). */
const WEEKDAY_OF: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const localWeekday = (t: number, tz: string) => WEEKDAY_OF[new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short' }).format(t)]!;

/** Ranges whose edges fall inside months, days, hours and 5-minute slices, on slice starts, and on job times. */
function ranges(seed: number, n: number): [number, number][] {
  const rnd = prng(seed);
  const out: [number, number][] = [
    [Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-04-01T00:00:00Z')],
    [Date.parse('2026-06-01T00:00:00Z'), Date.parse('2026-07-01T00:00:00Z')],
    [Date.parse('2026-06-14T10:02:30Z'), Date.parse('2026-06-14T23:59:59.999Z')],
    [T0 - 86_400_000, Date.parse('2026-07-02T00:00:00Z')],
  ];
  for (let i = 0; i < n; i++) {
    const a = T0 - 86_400_000 + Math.floor(rnd() * (SPAN + 86_400_000));
    const len = [300_000, 3_600_000, 86_400_000, 40 * 86_400_000][i % 4]! * (0.5 + rnd() * 3);
    out.push([a, Math.min(a + Math.floor(len), T0 + SPAN + 86_400_000)]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('report rollups', () => {
  it('MON-053 hand-counted: a month cut one second short, a day cut at both ends on job times, a range ending on a month start', async () => {
    // Jobs 1-3 (June, after the generated jobs): four ran (one prevented, two detected, one alerted, one missed), one not run.
    const june = await results(db, { start: '2026-06-01T00:00:00Z', end: '2026-06-30T23:59:59Z', group_by: 'simulation' });
    expect(counts(june.totals)).toEqual({ total: 4, prevented: 1, detected: 2, alerted: 1, missed: 1, notRun: 1, errored: 0 });
    expect(june.rows.map((r) => [r.key, r.total, r.notRun])).toEqual([
      ['1', 2, 0],
      ['2', 1, 0],
      ['none', 1, 1],
    ]);
    // Jobs 2 and 3 sit on the range's two edges and count.
    const day = await results(db, { start: '2026-06-14T10:02:30Z', end: '2026-06-14T23:59:59.999Z', group_by: 'action_type' });
    expect(day.rows.map((r) => [r.key, r.total, r.prevented, r.detected, r.missed, r.notRun])).toEqual([
      ['port_scan', 1, 0, 1, 0, 0],
      ['web_request', 1, 0, 0, 1, 0],
      ['dns', 0, 0, 0, 0, 1],
    ]);
    const inside = await results(db, { start: '2026-06-14T10:02:30.001Z', end: '2026-06-14T23:59:59.998Z', group_by: 'action_type' });
    expect(inside.rows).toEqual([]);
    expect(inside.totals.total).toBe(0);
    // July's first instant is outside a range ending just before it, inside one ending on it.
    const before = await results(db, { start: '2026-06-30T00:00:00Z', end: '2026-06-30T23:59:59.999Z', group_by: 'action' });
    expect(before.rows).toEqual([]);
    const on = await results(db, { start: '2026-06-30T00:00:00Z', end: '2026-07-01T00:00:00Z', group_by: 'action' });
    expect(on.rows.map((r) => [r.key, r.label, r.prevented])).toEqual([['1', 'Resolve', 1]]);
    const series = await timeSeries(db, { start: '2026-06-01T00:00:00Z', end: '2026-07-01T00:00:00Z', points: 3 });
    expect(series.points.map((p) => [p.start, p.total, p.notRun])).toEqual([
      ['2026-06-01T00:00:00.000Z', 2, 0],
      ['2026-06-11T00:00:00.000Z', 2, 1],
      ['2026-06-21T00:00:00.000Z', 1, 0],
    ]);
  });

  it('MON-053 every grouping key over ranges cut inside months, days, hours and 5-minute slices equals the raw job actions', async () => {
    for (const [a, b] of ranges(7, 12)) await expectSameAsRaw(a, b);
    // About 200 report calls: room for a loaded machine.
  }, 120_000);

  it('MON-053 without a range: every job action counts', async () => {
    const a = await results(db, { group_by: 'monitor' });
    const e = await expected('monitor', -Infinity, Infinity);
    expect(counts(a.totals)).toEqual(e.totals);
    expect(a.rows.map((r) => ({ key: r.key, ...counts(r) }))).toEqual(e.rows);
  });

  it('MON-053 a range open on one side (read to the month boundary past the oldest or newest job) equals the raw job actions', async () => {
    const cut = Date.parse('2026-03-14T10:02:30.5Z');
    for (const by of ['action_type', 'technique', 'destination_zone', 'simulation'] as GroupKey[]) {
      await expectResultsAsRaw(by, { start: iso(cut) }, cut, Infinity);
      await expectResultsAsRaw(by, { end: iso(cut) }, -Infinity, cut);
    }
  });

  it('MON-053 MON-183 time series buckets cut anywhere equal the raw job actions (121, 7 and 481 points)', async () => {
    await expectSeriesSameAsRaw(T0 - 3_600_000, T0 + SPAN, 121);
    await expectSeriesSameAsRaw(Date.parse('2026-03-14T10:02:30Z'), Date.parse('2026-03-14T23:59:59.999Z'), 7);
    await expectSeriesSameAsRaw(T0 + 12_345, T0 + 10 * 86_400_000 + 777, 481);
  });

  it('MON-053 a filter that keeps every job (text matching Ran By) agrees with the unfiltered rollups', async () => {
    // Every job's Ran By is 'Scheduled Process' here (no user): the text filter keeps all jobs (read from the class rollups).
    const [a, b] = [T0 + 5 * 86_400_000 + 1234, T0 + 33 * 86_400_000 + 99];
    for (const by of ['action_type', 'zone', 'technique'] as GroupKey[]) {
      const raw = await results(db, { start: iso(a), end: iso(b), group_by: by, filterVal: 'scheduled', limit: 500 });
      const rolled = await results(db, { start: iso(a), end: iso(b), group_by: by, limit: 500 });
      expect(raw.rows).toEqual(rolled.rows);
      expect(raw.totals).toEqual(rolled.totals);
    }
    const rawSeries = await timeSeries(db, { start: iso(a), end: iso(b), points: 50, filterVal: 'scheduled' });
    expect(rawSeries).toEqual(await timeSeries(db, { start: iso(a), end: iso(b), points: 50 }));
    const tree = await treeMap(db, { start: iso(a), end: iso(b), group_by: 'action', match: 'detected', filterVal: 'scheduled' });
    expect(tree).toEqual(await treeMap(db, { start: iso(a), end: iso(b), group_by: 'action', match: 'detected' }));
    const taam = await mitreTaam(db, { start: iso(a), end: iso(b), filterVal: 'scheduled' });
    expect(taam).toEqual(await mitreTaam(db, { start: iso(a), end: iso(b) }));
  });

  it('MON-051 days of the week (local days: DST, half-hour zones, a midnight fall-back) read from the rollups equal the raw job actions of the kept days', async () => {
    // Jobs on local midnights and a millisecond before: Paris before and after its DST change (Monday
    // 2026-03-30 starts 22:00 UTC), Kolkata (+05:30), Santiago's Saturday 2026-04-04 that falls back at
    // midnight (25 hours: its second 23:30 is 03:30 UTC, Sunday starts 04:00 UTC).
    const edges = ['2026-03-09T22:59:59.999Z', '2026-03-09T23:00:00Z', '2026-03-29T21:59:59.999Z', '2026-03-29T22:00:00Z', '2026-03-14T18:29:59.999Z', '2026-03-14T18:30:00Z', '2026-04-05T03:30:00Z', '2026-04-05T04:00:00Z'];
    await db.exec(`
      insert into jobs (id, name, status, created_at, started_at) values ${edges.map((t, i) => `(${900 + i}, 'Local edge ${i}', 'completed', '${t}', '${t}')`).join(', ')};
      insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values ${edges.map((_, i) => `(${900 + i}, ${900 + i}, 0, ${1 + (i % 4)}, null)`).join(', ')};
      insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, alerted, blocked, events) values
        ${edges.map((_, i) => `(${900 + i}, ${900 + i}, ${1 + (i % 4)}, 'A${1 + (i % 4)}', 'x', '${['dns', 'host_cli', 'web_request', 'port_scan'][i % 4]}', 'ran', ${i % 3 === 0}, ${i % 2 === 0}, ${i % 5})`).join(', ')};
    `);
    try {
      const cases: [tz: string, days: string][] = [
        ['UTC', 'M,T,W,Th,F'],
        ['Europe/Paris', 'M,T,W,Th,F'],
        ['Europe/Paris', 'Su'],
        ['Asia/Kolkata', 'S,Su'],
        ['America/Santiago', 'S'],
        ['America/St_Johns', 'M,W,F'],
      ];
      const spans: [number, number][] = [
        [T0 - 86_400_000, T0 + SPAN + 86_400_000],
        [Date.parse('2026-03-09T22:59:59.999Z'), Date.parse('2026-03-30T12:00:00Z')],
        [Date.parse('2026-04-04T10:00:00Z'), Date.parse('2026-04-05T04:00:00Z')],
      ];
      for (const [tz, week_days] of cases) {
        const set = new Set(week_days.split(',').map((d) => ['Su', 'M', 'T', 'W', 'Th', 'F', 'S'].indexOf(d)));
        const keep = (f: Fact) => set.has(localWeekday(f.t, tz));
        for (const [a, b] of spans)
          for (const by of ['action_type', 'technique', 'destination_zone', 'simulation'] as GroupKey[]) await expectResultsAsRaw(by, { start: iso(a), end: iso(b), week_days, tz }, a, b, keep);
        await expectSeriesSameAsRaw(T0 - 3_600_000, T0 + SPAN, 121, { week_days, tz, keep });
        await expectSeriesSameAsRaw(Date.parse('2026-03-29T12:00:00Z'), Date.parse('2026-03-30T12:00:00Z'), 7, { week_days, tz, keep });
        // The class rollups (a text matching every job's Ran By) and the status rollups (a text matching
        // the status of every job) answer the same through the same windows.
        const [a, b] = spans[1]!;
        const plain = await results(db, { start: iso(a), end: iso(b), group_by: 'action_type', week_days, tz, limit: 500 });
        for (const filterVal of ['scheduled', 'completed']) {
          const filtered = await results(db, { start: iso(a), end: iso(b), group_by: 'action_type', week_days, tz, filterVal, limit: 500 });
          expect(filtered.rows, `${filterVal} ${tz} ${week_days}`).toEqual(plain.rows);
          expect(filtered.totals).toEqual(plain.totals);
        }
      }
    } finally {
      await db.exec(`delete from job_actions where job_id >= 900 and job_id < 910; delete from job_steps where job_id >= 900 and job_id < 910; delete from jobs where id >= 900 and id < 910;`);
    }
  }, 120_000);

  it('MON-053 live: answers follow job actions as they are created, finish, gain events, move and go', async () => {
    const check = async () => {
      for (const [a, b] of [
        [T0, Date.parse('2026-09-01T00:00:00Z')],
        [Date.parse('2026-03-10T07:31:00Z'), Date.parse('2026-03-20T16:02:13.5Z')],
        [Date.parse('2026-08-20T00:00:00Z'), Date.parse('2026-08-20T01:00:00Z')],
      ] as [number, number][])
        await expectSameAsRaw(a, b);
      await expectSeriesSameAsRaw(T0, Date.parse('2026-09-01T00:00:00Z'), 61);
    };
    // A new job with pending job actions: rows with nothing evaluated yet.
    await db.exec(`
      insert into jobs (id, name, status, simulation_id, created_at) values (500, 'Live', 'pending', 1, '2026-08-20T00:10:00Z');
      insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (500, 500, 0, 2, 3), (501, 500, 1, 4, null);
      insert into job_actions (id, job_step_id, job_id, action_id, sim_action_vid, name, action_type, status) values
        (5000, 500, 500, 1, 'A1', 'Resolve', 'dns', 'pending'), (5001, 500, 500, 2, 'A2', 'Stop EDR', 'host_cli', 'pending'), (5002, 501, 500, 3, 'A3', 'Fetch', 'web_request', 'pending');
    `);
    const pending = await results(db, { start: '2026-08-20T00:00:00Z', end: '2026-08-20T01:00:00Z', group_by: 'action_type' });
    expect(pending.rows.map((r) => [r.key, r.total])).toEqual([
      ['dns', 0],
      ['host_cli', 0],
      ['web_request', 0],
    ]);
    await check();
    // The job starts (its time moves), actions finish one by one, detection adds events later.
    await db.exec(`update jobs set status = 'running', started_at = '2026-08-20T00:55:00Z' where id = 500`);
    await db.exec(`update job_actions set status = 'ran', blocked = true where id = 5000`);
    await db.exec(`update job_actions set status = 'ran', blocked = false where id = 5001`);
    await check();
    await db.exec(`update job_actions set events = events + 2, alerted = true where id = 5001`);
    await db.exec(`update job_actions set status = 'errored' where id = 5002`);
    const done = await results(db, { start: '2026-08-20T00:00:00Z', end: '2026-08-20T01:00:00Z', group_by: 'action_type' });
    expect(done.rows.map((r) => [r.key, r.total, r.prevented, r.detected, r.alerted, r.errored])).toEqual([
      ['dns', 1, 1, 0, 0, 0],
      ['host_cli', 1, 0, 1, 1, 0],
      ['web_request', 0, 0, 0, 0, 1],
    ]);
    await check();
    // Retagging an Action and moving an actor to another zone change keys without touching job actions.
    await db.exec(`insert into action_tags (action_id, tag_id) values (3, 904); update nodes set security_zone_id = 1 where id = 3`);
    await check();
    // Deleting an actor, an Action and a simulation sets their references to null.
    await db.exec(`delete from nodes where id = 4; delete from actions where id = 4; delete from simulations where id = 2`);
    await check();
    // A step deleted on its own (as a monitor's sleeping job is re-planned), then whole jobs.
    await db.exec(`delete from job_steps where id = 501`);
    await check();
    await db.exec(`delete from jobs where id in (500, 1, 105)`);
    await check();
    // A job action deleted by itself, and one moved to another job.
    await db.exec(`delete from job_actions where id = (select min(id) from job_actions where job_id = 110)`);
    await db.exec(`update job_actions set job_id = 111, job_step_id = 111 where id = (select min(id) from job_actions where job_id = 112)`);
    await check();
  }, 120_000);

  it('MON-053 filters on job names, Ran By, assessment, published and simulation read the class rollups and equal the raw path', async () => {
    setJobRuleCompiler(compileJobRules);
    // Names, users, assessments and publication spread over the generated jobs (each change moves the jobs' rows between classes).
    const [{ id: uid } = { id: 0 }] = await db.query<{ id: number }>(
      `insert into users (email, first_name, last_name, role, password_hash) values ('rita@example.com', 'Rita', 'Report', 'operator', 'x') returning id`,
    );
    await db.exec(`
      update jobs set name = case when id % 3 = 0 then 'Daily Hygiene ' || (id % 2) when id % 3 = 1 then 'Alpha sweep' else name end where id >= 100;
      update jobs set user_id = ${uid} where id >= 100 and id % 4 = 1;
      update jobs set assessment_name = 'Q3 review' where id % 5 = 2;
      update jobs set published_status = 2 where id % 7 < 3;
      update jobs set published_status = 1 where id % 7 = 3;
    `);
    const job = (field: string, operator: string, value: string | string[]) => ({ match_object: 'job', match_field: field, operator, value });
    const rules = (...conditions: object[]) => ({ filter: 'adhoc', structuredFilter: JSON.stringify({ rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions }] }] }) });
    const filters: Record<string, Record<string, string>> = {
      'text "hygiene"': { filterVal: 'hygiene' },
      'text "rita" (Ran By)': { filterVal: 'rita' },
      'name contains hygiene': rules(job('name', 'contains', 'hygiene')),
      'name starts with alpha, Ran By in': rules(job('name', 'starts_with', 'ALPHA'), job('ran_by', 'in', ['Scheduled Process'])),
      'assessment equals, published': rules(job('assessment_name', 'equals', 'q3 review'), job('published', 'equals', 'yes')),
      'not published, name not contains': rules(job('published', 'equals', 'no'), job('name', 'not_contains', 'sweep')),
      'simulation S1': { vid: 'S1' },
    };
    /** The same filter with "or job id 0" (no such job): a condition classes cannot answer, so it reads the raw job actions. */
    const asRaw = (f: Record<string, string>) => {
      const inner = f.structuredFilter ? (JSON.parse(f.structuredFilter) as { rules: object[] }).rules : [];
      const raw = { ...f, filter: 'adhoc', structuredFilter: JSON.stringify({ rules: [{ operator: 'or', conditions: [...inner, job('id', 'in', '0')] }] }) };
      return inner.length ? raw : { ...raw, structuredFilter: JSON.stringify({ rules: [{ operator: 'or', conditions: [job('id', 'not_in', '0')] }] }) };
    };
    const check = async (label: string) => {
      for (const [name, f] of Object.entries(filters)) {
        const scope = await reportScope(db, { ...f, group_by: 'action' });
        expect(scope.classes, `${name}: read from the class rollups`).not.toBeNull();
        expect((await reportScope(db, { ...asRaw(f), group_by: 'action' })).classes, `${name} or job 0: read raw`).toBeNull();
        for (const [a, b] of [
          [T0 - 86_400_000, Date.parse('2026-07-02T00:00:00Z')],
          [Date.parse('2026-03-10T07:31:00Z'), Date.parse('2026-04-20T16:02:13.5Z')],
          [Date.parse('2026-06-14T10:02:30Z'), Date.parse('2026-06-14T23:59:59.999Z')],
        ] as [number, number][]) {
          for (const by of a < T0 ? GROUP_KEYS : (['action_type', 'zone', 'technique', 'simulation'] as GroupKey[])) {
            const q = { start: iso(a), end: iso(b), group_by: by, limit: 500 };
            const classed = await results(db, { ...q, ...f });
            expect(classed, `${label} ${name} by ${by} ${q.start}..${q.end}`).toEqual(await results(db, { ...q, ...asRaw(f) }));
          }
        }
        const series = { start: iso(T0 - 3_600_000), end: iso(T0 + SPAN), points: 121 };
        expect(await timeSeries(db, { ...series, ...f }), `${label} ${name} series`).toEqual(await timeSeries(db, { ...series, ...asRaw(f) }));
        expect(await results(db, { group_by: 'action_type', ...f }), `${label} ${name} all time`).toEqual(await results(db, { group_by: 'action_type', ...asRaw(f) }));
      }
    };
    // Hand-checked: the filter keeps what it names and no more.
    const hygiene = await results(db, { group_by: 'simulation', limit: 500, ...filters['name contains hygiene']! });
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>(`select count(*)::int as n from job_actions a join jobs j on j.id = a.job_id where j.name ilike '%hygiene%' and a.status = 'ran'`);
    expect(n).toBeGreaterThan(10);
    expect(hygiene.totals.total).toBe(n);
    await check('after the jobs changed');
    // Live: a job renamed into a class, one published, a user's jobs, job actions finishing and going.
    await db.exec(`update jobs set name = 'Daily hygiene 9' where id = 101; update jobs set published_status = 2 where id = 104; update jobs set user_id = null where id = 105`);
    await db.exec(`update job_actions set status = 'ran', blocked = true where job_id = 102; delete from job_actions where id = (select min(id) from job_actions where job_id = 103)`);
    await db.exec(`delete from jobs where id = 106; delete from job_steps where id = 107`);
    await check('live');
  }, 240_000);

  it('MON-053 a job starting inside its 5-minute slice keeps its counts there; one starting in the next slice moves them', async () => {
    const hour: [number, number] = [Date.parse('2026-08-21T00:00:00Z'), Date.parse('2026-08-21T01:00:00Z')];
    const check = async () => {
      await expectSameAsRaw(...hour, ['action_type']);
      // 12 points: one per 5-minute slice, so a count left in the slice it moved from shows.
      await expectSeriesSameAsRaw(...hour, 12);
    };
    await db.exec(`
      insert into jobs (id, name, status, simulation_id, created_at) values (600, 'Slice', 'pending', 1, '2026-08-21T00:20:10Z');
      insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (600, 600, 0, 1, 2);
      insert into job_actions (id, job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, blocked) values
        (6000, 600, 600, 1, 'A1', 'Resolve', 'dns', 'ran', true), (6001, 600, 600, 3, 'A3', 'Fetch', 'web_request', 'pending', null);
    `);
    await check();
    // Started 90 s after it was created, in the same slice (00:20-00:25): nothing moves.
    await db.exec(`update jobs set status = 'preparing', started_at = '2026-08-21T00:21:40Z' where id = 600`);
    await check();
    // Started again on the next slice's first instant: its job actions move to 00:25.
    await db.exec(`update jobs set started_at = '2026-08-21T00:25:00Z' where id = 600`);
    await check();
    const series = await timeSeries(db, { start: iso(hour[0]), end: iso(hour[1]), points: 12 });
    expect(series.points.map((p) => p.total)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('MON-053 a job action moving between statuses counted alike (pending, running, cancelled; not run, incompatible) keeps its counts; other moves change them', async () => {
    const check = () => expectSameAsRaw(Date.parse('2026-08-21T00:00:00Z'), Date.parse('2026-08-21T01:00:00Z'), ['action_type']);
    const notRun = async () => (await results(db, { start: '2026-08-21T00:00:00Z', end: '2026-08-21T01:00:00Z', group_by: 'action_type' })).rows.find((r) => r.key === 'web_request')?.notRun;
    for (const status of ['running', 'cancelled', 'incompatible', 'not run', 'errored', 'pending']) {
      await db.exec(`update job_actions set status = '${status}' where id = 6001`);
      await check();
    }
    await db.exec(`update job_actions set status = 'not run' where id = 6001`);
    expect(await notRun()).toBe(1);
    await db.exec(`update job_actions set status = 'incompatible' where id = 6001`);
    expect(await notRun()).toBe(1);
  });

  it('MON-053 reads add the facts still queued to the rollups (migration 028): equal to the raw job actions before a flush, after it and with new facts queued since', async () => {
    const queued = async () => Number((await db.query<{ n: number }>('select count(*)::int as n from report_fact_queue'))[0]?.n);
    const [a, b] = [T0 + 3 * 86_400_000 + 4321, T0 + 40 * 86_400_000 + 17];
    const check = async () => {
      for (const by of ['action_type', 'actor', 'destination_actor', 'simulation', 'monitor'] as GroupKey[]) await expectResultsAsRaw(by, { start: iso(a), end: iso(b) }, a, b);
      await expectSeriesSameAsRaw(a, b, 40);
    };
    // A filter on a job class field reads the class rollups and their queue.
    const byClass = async () => [
      await results(db, { start: iso(a), end: iso(b), group_by: 'action_type', filterVal: 'scheduled', limit: 500 }),
      await timeSeries(db, { start: iso(a), end: iso(b), points: 40, filterVal: 'scheduled' }),
    ];
    // No director ran here: every fact the triggers made is still queued, and the rollups hold none.
    expect(await queued()).toBeGreaterThan(100);
    expect(Number((await db.query<{ n: number }>('select count(*)::int as n from report_rollups'))[0]?.n)).toBe(0);
    await check();
    const classesQueued = await byClass();
    const [flushed] = await db.query<{ n: number }>('select vigil_report_flush() as n');
    expect(flushed?.n).toBeGreaterThan(100);
    expect(await queued()).toBe(0);
    await check();
    expect(await byClass()).toEqual(classesQueued);
    // Results after the flush: queued again, beside the rollups that hold the rest.
    await db.exec(`update job_actions set status = 'ran', blocked = (id % 2 = 0), events = id % 3 where id in (select id from job_actions where status <> 'ran' order by id limit 40)`);
    expect(await queued()).toBeGreaterThan(0);
    await check();
  });

  it('the rollups kept by the triggers equal a rebuild from the job actions', async () => {
    const snapshot = () => db.query(`select grain, dim, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored from report_rollups order by 1, 2, 3, 4, 5`);
    const classes = () =>
      db.query(`select grain, dim, c.name, c.ran_by, c.assessment_name, c.published_status, c.simulation_id, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored
        from report_class_rollups r join report_job_classes c on c.class_id = r.c order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`);
    // What the triggers queued since the last flush, added to the rollups.
    await db.exec('select vigil_report_flush()');
    const kept = await snapshot();
    const keptClasses = await classes();
    expect(kept.length).toBeGreaterThan(100);
    expect(keptClasses.length).toBeGreaterThan(100);
    // Queued facts a rebuild would count twice: it counts every job action anew and empties the queue.
    await db.exec(`update job_actions set status = 'errored' where id in (select id from job_actions where status = 'ran' order by id limit 5)`);
    // A job deleted after its facts were flushed: the rows only it counted go from the rollups.
    const [alone] = await db.query<{ id: number }>(
      `select j.id from jobs j join job_actions a on a.job_id = j.id where (select count(*) from jobs o where vigil_report_bucket(0::smallint, o.job_time) = vigil_report_bucket(0::smallint, j.job_time)) = 1 order by j.id limit 1`,
    );
    expect(alone).toBeDefined();
    await db.query('delete from jobs where id = $1', [alone?.id]);
    await db.exec('select vigil_report_flush()');
    const after = await snapshot();
    expect(after.length).toBeLessThan(kept.length);
    const afterClasses = await classes();
    await db.exec(`insert into report_fact_queue select (row(1, job_time, null, null, null, null, null, 'dns', 'ran', false, false, 0, null)::vigil_report_fact).* from jobs limit 3`);
    await db.exec('select vigil_report_rebuild()');
    expect(Number((await db.query<{ n: number }>('select count(*)::int as n from report_fact_queue'))[0]?.n)).toBe(0);
    expect(await snapshot()).toEqual(after);
    expect(await classes()).toEqual(afterClasses);
    expect(after).not.toEqual(kept);
    expect(afterClasses).not.toEqual(keptClasses);
  });
});
