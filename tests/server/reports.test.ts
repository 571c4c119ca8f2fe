import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Session, type TestServer } from './helpers';
import { seedReportWorld } from './report-fixtures';
import type { MitreTaamAnswer, ResultRow, ResultsAnswer, TechniqueActionsAnswer, TimeSeriesAnswer, TreeMapAnswer, MitreMatrixAnswer, UntestedAnswer } from '@/api/contracts/reports';
import { FAIL_COLOR, PASS_COLOR } from '@/api/contracts/reports';
import type { PanelsAnswer } from '@/api/contracts/report-table';

/**
 * Result aggregations on a small hand-built set (issue 18). Expected figures are counted by hand:
 *
 *   job 1 "Alpha sweep" 2026-01-10, simulation S1, step n1 (zone Z1) -> n2 (zone Z2)
 *     A1 dns ran blocked            -> prevented
 *     A2 host_cli ran alerted, 2 ev -> detected, alerted
 *     A3 web_request ran, nothing   -> missed
 *   job 2 "Beta run" 2026-01-20, no simulation, step n3 (zone Z2)
 *     A1 dns ran not blocked, 1 ev  -> detected
 *     A2 host_cli not run           -> not run
 *     A3 web_request errored        -> errored
 *   job 3 "Gamma old" 2025-12-01, step n1: A1 dns ran blocked (outside January)
 *
 * Tags: A1 T1059 (Execution TA0002) + 'Crown Jewels'; A2 T1562 (Defense Evasion TA0005) + 'Control:Network IPS'.
 */

let t: TestServer;
let viewer: Session;
const JAN = 'start=2026-01-01T00:00:00Z&end=2026-01-31T00:00:00Z';

async function get<T>(url: string, as: Session = viewer): Promise<T> {
  const res = await t.call('GET', url, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

const pick = (r: ResultRow | undefined) => r && { key: r.key, label: r.label, total: r.total, prevented: r.prevented, detected: r.detected, alerted: r.alerted, missed: r.missed, notRun: r.notRun, errored: r.errored };

beforeAll(async () => {
  t = await startTestServer();
  viewer = await t.signIn('viewer');
  await seedReportWorld(t.db, {
    nodes: [
      [1, 'n1', 'Actor One', 1],
      [2, 'n2', '', 2],
      [3, 'n3', 'Actor Three', 2],
    ],
    actions: [
      [1, 'A100-001', 'Resolve a bad domain', 'dns'],
      [2, 'A100-002', 'Stop the EDR', 'host_cli'],
      [3, 'A100-003', 'Fetch a page', 'web_request'],
    ],
    actionTags: [
      [1, 903],
      [1, 905],
      [2, 904],
      [2, 906],
    ],
    simulations: [[1, 'S100-001', 'Quarterly sweep', 'sequence']],
  });
  await t.db.exec(`
    insert into jobs (id, name, status, simulation_id, created_at, started_at) values
      (1, 'Alpha sweep', 'completed', 1, '2026-01-10T00:00:00Z', '2026-01-10T00:00:00Z'),
      (2, 'Beta run', 'completed', null, '2026-01-20T00:00:00Z', '2026-01-20T00:00:00Z'),
      (3, 'Gamma old', 'completed', null, '2025-12-01T00:00:00Z', '2025-12-01T00:00:00Z');
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (1, 1, 0, 1, 2), (2, 2, 0, 3, null), (3, 3, 0, 1, null);
    insert into job_actions (id, job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, alerted, blocked, events) values
      (1, 1, 1, 1, 'A100-001', 'Resolve a bad domain', 'dns', 'ran', false, true, 0),
      (2, 1, 1, 2, 'A100-002', 'Stop the EDR', 'host_cli', 'ran', true, false, 2),
      (3, 1, 1, 3, 'A100-003', 'Fetch a page', 'web_request', 'ran', false, null, 0),
      (4, 2, 2, 1, 'A100-001', 'Resolve a bad domain', 'dns', 'ran', false, false, 1),
      (5, 2, 2, 2, 'A100-002', 'Stop the EDR', 'host_cli', 'not run', false, null, 0),
      (6, 2, 2, 3, 'A100-003', 'Fetch a page', 'web_request', 'errored', false, null, 0),
      (7, 3, 3, 1, 'A100-001', 'Resolve a bad domain', 'dns', 'ran', false, true, 0);
  `);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /reports/results.json', () => {
  it('MON-053 totals and percentages of January', async () => {
    const a = await get<ResultsAnswer>(`/reports/results.json?${JAN}`);
    expect(a.totals).toMatchObject({ total: 4, prevented: 1, detected: 2, alerted: 1, missed: 1, passed: 3, failed: 1, notPrevented: 3, notRun: 1, errored: 1 });
    expect(a.totals).toMatchObject({ preventedPct: 25, detectedPct: 50, alertedPct: 25, missedPct: 25, passedPct: 75, failedPct: 25, notPreventedPct: 75 });
    expect(a.start).toBe('2026-01-01T00:00:00.000Z');
  });

  it('MON-053 rows by action type, largest total first, with labels', async () => {
    const a = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=action_type`);
    expect(a.rows.map(pick)).toEqual([
      { key: 'dns', label: 'DNS', total: 2, prevented: 1, detected: 1, alerted: 0, missed: 0, notRun: 0, errored: 0 },
      { key: 'host_cli', label: 'Host CLI', total: 1, prevented: 0, detected: 1, alerted: 1, missed: 0, notRun: 1, errored: 0 },
      { key: 'web_request', label: 'Web Request', total: 1, prevented: 0, detected: 0, alerted: 0, missed: 1, notRun: 0, errored: 1 },
    ]);
    expect(a.truncated).toBe(false);
  });

  it('MON-053 rows by technique, tactic, tag and control (names from ATT&CK)', async () => {
    const tech = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=technique`);
    expect(tech.rows.map((r) => [r.key, r.label, r.total, r.prevented, r.detected])).toEqual([
      ['T1059', 'Command and Scripting Interpreter', 2, 1, 1],
      ['T1562', 'Impair Defenses', 1, 0, 1],
    ]);
    const tac = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=tactic`);
    expect(tac.rows.map((r) => [r.key, r.label, r.total])).toEqual([
      ['TA0002', 'Execution', 2],
      ['TA0005', 'Defense Evasion', 1],
    ]);
    const tag = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=tag`);
    expect(tag.rows.map((r) => [r.key, r.total])).toEqual([
      ['Crown Jewels', 2],
      ['Control:Network IPS', 1],
    ]);
    const control = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=control`);
    expect(control.rows.map((r) => [r.key, r.total, r.detected])).toEqual([['Control:Network IPS', 1, 1]]);
  });

  it('MON-053 rows by actor, zone and simulation', async () => {
    const actor = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=actor`);
    expect(actor.rows.map((r) => [r.label, r.total, r.notRun, r.errored])).toEqual([
      ['Actor One', 3, 0, 0],
      ['Actor Three', 1, 1, 1],
    ]);
    const dest = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=destination_actor`);
    expect(dest.rows.map((r) => [r.label, r.total])).toEqual([['n2', 3]]);
    const zone = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=zone`);
    expect(zone.rows.map((r) => [r.label, r.total])).toEqual([
      ['Z1', 3],
      ['Z2', 1],
    ]);
    const sim = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=simulation`);
    expect(sim.rows.map((r) => [r.key, r.label, r.total])).toEqual([
      ['1', 'Quarterly sweep', 3],
      ['none', 'Single Actions', 1],
    ]);
  });

  it('MON-053 without a range every job counts; limit truncates', async () => {
    const all = await get<ResultsAnswer>('/reports/results.json?group_by=action_type&limit=1');
    expect(all.totals).toMatchObject({ total: 5, prevented: 2 });
    expect(all.rows.map((r) => [r.key, r.total])).toEqual([['dns', 3]]);
    expect(all.truncated).toBe(true);
  });

  it('MON-053 the jobs list filters apply: text, VID and structured rules', async () => {
    const beta = await get<ResultsAnswer>(`/reports/results.json?${JAN}&filterVal=beta`);
    expect(beta.totals).toMatchObject({ total: 1, detected: 1, notRun: 1, errored: 1 });
    const sim = await get<ResultsAnswer>(`/reports/results.json?${JAN}&vid=S100-001`);
    expect(sim.totals.total).toBe(3);
    const rules = JSON.stringify({ rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator: 'contains', value: 'alpha' }] }] }] });
    const alpha = await get<ResultsAnswer>(`/reports/results.json?${JAN}&filter=adhoc&structuredFilter=${encodeURIComponent(rules)}`);
    expect(alpha.totals).toMatchObject({ total: 3, prevented: 1, detected: 1, missed: 1 });
    const events = await get<ResultsAnswer>(`/reports/results.json?${JAN}&filter=adhoc&structuredFilter=${encodeURIComponent('{"events":"present"}')}`);
    expect(events.totals.total).toBe(4);
    const none = await get<ResultsAnswer>(`/reports/results.json?${JAN}&filterVal=zzz-no-such-job`);
    expect(none.totals.total).toBe(0);
    expect(none.rows).toEqual([]);
  });

  it('refuses bad input with 400 and a message, and callers without a session with 401', async () => {
    const cases: [string, RegExp][] = [
      ['group_by=colour', /group_by must be one of/],
      ['start=yesterday', /start must be an ISO 8601 time/],
      ['start=2026-02-01T00:00:00Z&end=2026-01-01T00:00:00Z', /start must not be after end/],
      ['limit=0', /limit must be at least 1/],
      ['limit=9999', /limit must be at most 500/],
      ['structuredFilter=%7B%7D', /structuredFilter needs filter=adhoc/],
      ['filter=adhoc&structuredFilter=nope', /structuredFilter is not valid JSON/],
    ];
    for (const [q, msg] of cases) {
      const res = await t.call('GET', `/reports/results.json?${q}`, { as: viewer });
      expect(res.statusCode, q).toBe(400);
      expect((res.json() as { error: string }).error, q).toMatch(msg);
    }
    expect((await t.call('GET', `/reports/results.json?${JAN}`)).statusCode).toBe(401);
  });
});

describe('days of the week (MON-051 repeat_week_days)', () => {
  // Job 1 started Saturday 2026-01-10 00:00 UTC: Friday 19:00 in New York. Job 2 started Tuesday
  // 2026-01-20 00:00 UTC: Monday 19:00 in New York.
  const totals = async (q: string) => (await get<ResultsAnswer>(`/reports/results.json?${JAN}&${q}`)).totals;

  it('MON-051 week_days keeps the jobs that started on those days, local to tz', async () => {
    expect(await totals('week_days=S&tz=UTC')).toMatchObject({ total: 3, prevented: 1, detected: 1, missed: 1, notRun: 0, errored: 0 });
    expect(await totals('week_days=M,T&tz=UTC')).toMatchObject({ total: 1, detected: 1, notRun: 1, errored: 1 });
    // The same instants are other days in New York.
    expect(await totals('week_days=S&tz=America/New_York')).toMatchObject({ total: 0, notRun: 0, errored: 0 });
    expect(await totals('week_days=F&tz=America/New_York')).toMatchObject({ total: 3, prevented: 1 });
    expect(await totals('week_days=M&tz=America/New_York')).toMatchObject({ total: 1, notRun: 1, errored: 1 });
    // Every day, or all seven, is the whole range (read from the rollups).
    const all = await totals('');
    expect(await totals('week_days=Su,M,T,W,Th,F,S&tz=UTC')).toEqual(all);
    expect(await totals('week_days=W&tz=UTC')).toMatchObject({ total: 0 });
  });

  it('MON-051 week_days works with the filter, the time series, the tree map and a dashboard\'s panels', async () => {
    expect(await totals('week_days=S,T&tz=UTC&filterVal=Beta')).toMatchObject({ total: 1, errored: 1 });
    const series = await get<TimeSeriesAnswer>(`/reports/time_series.json?${JAN}&points=3&week_days=T&tz=UTC`);
    expect(series.points.map((p) => p.total + p.notRun + p.errored)).toEqual([0, 3, 0]);
    const tree = await get<TreeMapAnswer>(`/reports/tree_map.json?${JAN}&group_by=action_type&week_days=S&tz=UTC`);
    expect(tree.rows.map((r) => [r.key, r.total])).toEqual([
      ['dns', 1],
      ['host_cli', 1],
      ['web_request', 1],
    ]);
    const res = await t.call('POST', '/reports/panels.json', {
      as: viewer,
      body: { queries: [{ source: 'taam', query: { start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z', week_days: 'M', tz: 'America/New_York' } }] },
    });
    const [taam] = (res.json() as PanelsAnswer).answers;
    const rows = taam && 'answer' in taam && taam.type === 'taam' ? taam.answer.mitre_taam_data.filter((x) => x.results.total > 0).map((x) => [x.tactic.id, x.results.total]) : taam;
    // Job 2's dns run (T1059, Execution) only.
    expect(rows).toEqual([['TA0002', 1]]);
  });

  it('MON-051 refuses days outside Su..S, days without a time zone and unknown zones (400 with a message)', async () => {
    const cases: [string, RegExp][] = [
      ['week_days=Mo&tz=UTC', /week_days: Weekdays must be among Su, M, T, W, Th, F, S/],
      ['week_days=M', /tz is required with week_days/],
      ['week_days=M&tz=Nowhere/Land', /tz must be an IANA time zone/],
    ];
    for (const [q, msg] of cases) {
      const res = await t.call('GET', `/reports/results.json?${JAN}&${q}`, { as: viewer });
      expect(res.statusCode, q).toBe(400);
      expect((res.json() as { error: string }).error, q).toMatch(msg);
    }
  });
});

describe('other result calls', () => {
  it('MON-053 MON-183 time series: equal buckets over the range', async () => {
    const a = await get<TimeSeriesAnswer>(`/reports/time_series.json?${JAN}&points=3`);
    expect(a.step_ms).toBe(10 * 86_400_000);
    expect(a.points.map((p) => [p.start, p.total, p.prevented, p.detected])).toEqual([
      ['2026-01-01T00:00:00.000Z', 3, 1, 1],
      ['2026-01-11T00:00:00.000Z', 1, 0, 1],
      ['2026-01-21T00:00:00.000Z', 0, 0, 0],
    ]);
    expect(a.points[2]!.end).toBe('2026-01-31T00:00:00.000Z');
    const bad = await t.call('GET', `/reports/time_series.json?${JAN}&points=1`, { as: viewer });
    expect(bad.statusCode).toBe(400);
  });

  it('MON-053 mitre_taam_data lists every tactic in matrix order with results', async () => {
    const a = await get<MitreTaamAnswer>(`/reports/mitre_taam_data.json?${JAN}`);
    expect(a.mitre_taam_data).toHaveLength(14);
    expect(a.mitre_taam_data[0]!.tactic).toEqual({ id: 'TA0043', name: 'Reconnaissance' });
    const exec = a.mitre_taam_data.find((d) => d.tactic.id === 'TA0002')!;
    expect([exec.results.total, exec.results.prevented]).toEqual([2, 1]);
    const evasion = a.mitre_taam_data.find((d) => d.tactic.id === 'TA0005')!;
    expect([evasion.results.total, evasion.results.detected]).toEqual([1, 1]);
    expect(a.mitre_taam_data.filter((d) => d.results.total === 0)).toHaveLength(12);
  });

  it('MON-053 MON-094 tree map rows: name, total, matched, colour by threshold', async () => {
    const a = await get<TreeMapAnswer>(`/reports/tree_map.json?${JAN}&group_by=action_type&match=prevented&threshold=50`);
    expect(a.rows).toEqual([
      { key: 'dns', name: 'DNS', total: 2, matched: 1, color: PASS_COLOR },
      { key: 'host_cli', name: 'Host CLI', total: 1, matched: 0, color: FAIL_COLOR },
      { key: 'web_request', name: 'Web Request', total: 1, matched: 0, color: FAIL_COLOR },
    ]);
    const detected = await get<TreeMapAnswer>(`/reports/tree_map.json?${JAN}&group_by=action_type&match=detected&threshold=100`);
    expect(detected.rows.map((r) => r.color)).toEqual([FAIL_COLOR, PASS_COLOR, FAIL_COLOR]);
    expect((await t.call('GET', '/reports/tree_map.json?threshold=101', { as: viewer })).statusCode).toBe(400);
  });

  it('the ATT&CK matrix and a technique cell: Actions and their latest runs', async () => {
    const m = await get<MitreMatrixAnswer>(`/reports/mitre_matrix.json?${JAN}`);
    expect(m.techniques.map((c) => [c.id, c.actions, c.results.total])).toEqual([
      ['T1059', 1, 2],
      ['T1562', 1, 1],
    ]);
    const cell = await get<TechniqueActionsAnswer>('/reports/mitre_technique.json?id=T1059');
    expect(cell.technique).toEqual({ id: 'T1059', name: 'Command and Scripting Interpreter' });
    expect(cell.actions.map((a) => [a.vid, a.latest_runs.map((r) => r.job_id)])).toEqual([['A100-001', [3, 2, 1]]]);
    expect((await t.call('GET', '/reports/mitre_technique.json?id=1059', { as: viewer })).statusCode).toBe(400);
    expect((await t.call('GET', '/reports/mitre_technique.json?id=T9999', { as: viewer })).statusCode).toBe(404);
  });

  it('MON-052 MON-136 the Panel Library answers groups of panels with numeric ids', async () => {
    const lib = await get<{ name: string; panels: { key: string; id: number; name: string; description: string; logo: string }[] }[]>('/reports/panel_library.json');
    const panels = lib.flatMap((g) => g.panels);
    expect(panels).toHaveLength(9);
    expect(new Set(panels.map((p) => p.key))).toEqual(new Set(['bullet', 'force_field', 'gauge', 'bar', 'pie', 'radar', 'line', 'block_rate', 'tree_map']));
    expect(panels.every((p) => typeof p.id === 'number' && p.name && p.description && p.logo)).toBe(true);
  });

  it('MON-140 MON-115 POST /reports/results.csv answers CSV text with the export options (separator, quotes, .csv name)', async () => {
    const res = await t.call('POST', '/reports/results.csv', {
      as: viewer,
      body: { separator: 'semicolon', delivery: 'download', all_events: 'all', regex: 'double', filename: 'weekly', props: { start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z', group_by: 'action_type' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="weekly.csv"');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Group;Total;Prevented;Detected;Alerts;Missed;Prevented %');
    expect(lines.slice(1)).toEqual(['DNS;2;1;1;0;0;50%', 'Host CLI;1;0;1;1;0;0%', 'Web Request;1;0;0;0;1;0%', 'All;4;1;2;1;1;25%']);
    const bad = await t.call('POST', '/reports/nothing.csv', { as: viewer, body: {} });
    expect(bad.statusCode).toBe(400);
    const badProps = await t.call('POST', '/reports/results.csv', { as: viewer, body: { props: { group_by: 'nope' } } });
    expect(badProps.statusCode).toBe(400);
  });

  it('MON-053 POST /reports/panels.json answers every panel of a dashboard in one call, each as its own call would', async () => {
    const jan = { start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z' };
    const queries = [
      { source: 'results', query: { ...jan, group_by: 'action_type' } },
      { source: 'series', query: { ...jan, points: 3 } },
      { source: 'taam', query: jan },
      { source: 'tree', query: { ...jan, group_by: 'action_type', match: 'prevented', threshold: 50 } },
      // The same figures asked again (a gauge beside a bullet), and a refused query in its place.
      { source: 'results', query: { ...jan, group_by: 'action_type' } },
      { source: 'results', query: { ...jan, group_by: 'nope' } },
      { source: 'results', query: { ...jan, group_by: 'action_type', filterVal: 'Beta' } },
    ];
    const res = await t.call('POST', '/reports/panels.json', { as: viewer, body: { queries } });
    expect(res.statusCode, res.body).toBe(200);
    const { answers } = res.json() as PanelsAnswer;
    expect(answers.map((a) => a.type)).toEqual(['results', 'series', 'taam', 'tree', 'results', 'results', 'results']);
    const alone = [
      await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=action_type`),
      await get<TimeSeriesAnswer>(`/reports/time_series.json?${JAN}&points=3`),
      await get<MitreTaamAnswer>(`/reports/mitre_taam_data.json?${JAN}`),
      await get<TreeMapAnswer>(`/reports/tree_map.json?${JAN}&group_by=action_type&match=prevented&threshold=50`),
    ];
    expect(answers.slice(0, 4).map((a) => ('answer' in a ? a.answer : a))).toEqual(alone);
    expect(answers[4]).toEqual(answers[0]);
    expect(answers[5]).toEqual({ type: 'results', error: { status: 400, message: expect.stringContaining('group_by must be one of') } });
    // A filtered panel: only job 2 (Beta run): one dns detected, host_cli not run, web_request errored.
    const beta = answers[6]!;
    expect('answer' in beta && beta.type === 'results' ? [beta.answer.totals.total, beta.answer.totals.detected, beta.answer.totals.notRun, beta.answer.totals.errored] : beta).toEqual([1, 1, 1, 1]);
  });

  it('MON-053 rule-builder filters on the job name (contains, starts with, ends with, equals, does not contain) narrow the results', async () => {
    const rule = (operator: string, value: string) =>
      `filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator, value }] }] }] }))}`;
    // January: job 1 "Alpha sweep" has 3 that ran, job 2 "Beta run" 1 (and 1 not run, 1 errored).
    for (const [operator, value, total, notRun] of [
      ['contains', 'ETA R', 1, 1],
      ['contains', 'a', 4, 1],
      ['starts_with', 'alpha', 3, 0],
      ['ends_with', 'RUN', 1, 1],
      ['equals', 'beta run', 1, 1],
      ['equals', 'beta', 0, 0],
      ['not_contains', 'beta', 3, 0],
    ] as const) {
      const a = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=action_type&${rule(operator, value)}`);
      expect([a.totals.total, a.totals.notRun], `${operator} ${value}`).toEqual([total, notRun]);
    }
  });

  it('POST /reports/panels.json refuses a body that is not a list of panel queries (400 with a message)', async () => {
    for (const body of [{}, { queries: [] }, { queries: 'x' }, { queries: [{ source: 'pie', query: {} }] }, { queries: [{ source: 'results', query: [1] }] }, { queries: Array.from({ length: 41 }, () => ({ source: 'results', query: {} })) }]) {
      const res = await t.call('POST', '/reports/panels.json', { as: viewer, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { error: string }).error, JSON.stringify(body)).toMatch(/queries|source|query/);
    }
    const anonymous = await t.call('POST', '/reports/panels.json', { body: { queries: [{ source: 'results', query: {} }] } });
    expect([401, 403]).toContain(anonymous.statusCode);
  });
});

describe('grouping by monitor and the untested techniques', () => {
  beforeAll(async () => {
    // Job 1 was started by a monitor; a fourth Action tests T1003 and never ran.
    await t.db.exec(`
      insert into monitors (id, name, monitor_runtime, repeat_job_period_number, repeat_job_period_type) values (1, 'Nightly drift', '2026-01-01 00:00', 1, 'days');
      update jobs set monitor_id = 1 where id = 1;
      insert into tags (id, name, class_name, tag_type, code, editable) values (907, 'OS Credential Dumping', 'mitre_attack', 'mitre_attack', 'T1003', false);
      insert into actions (id, vid, name, action_type) values (4, 'A100-004', 'Dump LSASS', 'host_cli');
      insert into action_tags (action_id, tag_id) values (4, 907);
    `);
  });

  it('MON-053 rows by monitor: the jobs a monitor ran, by its name; jobs without a monitor are left out', async () => {
    const a = await get<ResultsAnswer>(`/reports/results.json?${JAN}&group_by=monitor`);
    expect(a.rows.map(pick)).toEqual([{ key: '1', label: 'Nightly drift', total: 3, prevented: 1, detected: 1, alerted: 1, missed: 1, notRun: 0, errored: 0 }]);
    expect(a.totals.total).toBe(4);
  });

  it('untested techniques: techniques with Actions but no run in range, and those Actions once each', async () => {
    const jan = await get<UntestedAnswer>(`/reports/mitre_untested.json?${JAN}`);
    // T1059 (A1) and T1562 (A2) ran in January; only T1003 did not.
    expect(jan.techniques).toEqual([{ id: 'T1003', name: 'OS Credential Dumping', actions: 1 }]);
    expect(jan.actions).toEqual([{ id: 4, vid: 'A100-004', name: 'Dump LSASS', techniques: ['T1003'] }]);
    // In December only A1 (T1059) ran: T1003 and T1562 are untested.
    const dec = await get<UntestedAnswer>('/reports/mitre_untested.json?start=2025-12-01T00:00:00Z&end=2025-12-31T00:00:00Z');
    expect(dec.techniques.map((x) => x.id)).toEqual(['T1003', 'T1562']);
    expect(dec.actions.map((x) => [x.vid, x.techniques])).toEqual([
      ['A100-004', ['T1003']],
      ['A100-002', ['T1562']],
    ]);
    // The filter narrows what counts as tested: with only job 2 (Beta run), T1562 did not run (A2 was not run).
    const beta = await get<UntestedAnswer>(`/reports/mitre_untested.json?${JAN}&filterVal=Beta`);
    expect(beta.techniques.map((x) => x.id)).toEqual(['T1003', 'T1562']);
    const bad = await t.call('GET', '/reports/mitre_untested.json?start=yesterday', { as: viewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
  });
});
