import type { Db } from '../db/index';
import { HttpError, badRequest, notFound, validate } from '../http-errors';
import { iso } from '../jobs/list-query';
import { ATTACK_TACTICS, ATTACK_TECHNIQUES, attackName } from '../../src/api/contracts/attack/index';
import { ACTION_TYPE_LABELS } from '../../src/api/contracts/vocabulary';
import {
  FAIL_COLOR,
  PASS_COLOR,
  ZERO_COUNTS,
  withPercents,
  type GroupKey,
  type MatchMetric,
  type MitreMatrixAnswer,
  type MitreTaamAnswer,
  type ResultCounts,
  type ResultRow,
  type ResultsAnswer,
  type TechniqueActionsAnswer,
  type TimeSeriesAnswer,
  type TreeMapAnswer,
  type UntestedAnswer,
} from '../../src/api/contracts/reports';
import { panelsRequestSchema } from '../../src/api/contracts/report-requests';
import type { PanelAnswer, PanelSource, PanelsAnswer, ReportAnswer } from '../../src/api/contracts/report-table';
import { reportScope, type CountsRow, type ReportScope } from './scope';
import { bucketCounts, keyedCounts, rangeOf, type KeyMap } from './rollups';

/**
 * Result aggregations of the reports (issue 18, docs/api.md "Reports"): rows by a grouping key, totals,
 * time series, tactic data (mitre_taam_data), tree map rows, the ATT&CK matrix and a technique's Actions.
 * One statement per answer over the scope's `ja` rows; small lookups (Action -> tags and tactics) are
 * CTEs over the Actions, joined by hash to the job actions.
 */

type Raw = Record<string, unknown>;

export const toCounts = (r: CountsRow | undefined): ResultCounts => {
  if (!r) return { ...ZERO_COUNTS };
  const passed = r.total - r.missed;
  return {
    total: r.total,
    prevented: r.prevented,
    detected: r.detected,
    alerted: r.alerted,
    missed: r.missed,
    passed,
    failed: r.total - passed,
    notPrevented: r.total - r.prevented,
    notRun: r.not_run,
    errored: r.errored,
  };
};

const TAG_MAP = (cond: string) => `select at.action_id, t.name as key from action_tags at join tags t on t.id = at.tag_id where ${cond}`;
/** Action -> tactic codes: a technique's tactics, or a tactic tag itself. */
const TACTIC_MAP = `select distinct at.action_id, tac.code as key from action_tags at
  join tags t on t.id = at.tag_id and t.class_name = 'mitre_attack'
  left join tag_tactics tt on tt.tag_id = t.id
  join tags tac on tac.id = case when t.code like 'TA%' then t.id else tt.tactic_tag_id end
  where tac.code is not null`;
const TECHNIQUE_MAP = `select distinct at.action_id, t.code as key from action_tags at join tags t on t.id = at.tag_id
  where t.class_name = 'mitre_attack' and t.code like 'T%' and t.code not like 'TA%'`;

/**
 * Per grouping key: the rollup dimension it is read from and the key over its rows u(k, t) (k: the
 * Action, actor, simulation or monitor id, 0 for none; t: the job action's type). Tags, tactics,
 * techniques and zones are looked up now, so a retagged Action or a moved actor reports under its
 * current keys, as the raw aggregation does.
 */
const byAction = (map: string): KeyMap => ({ dim: 1, ctes: `m as (${map})`, join: 'join m on m.action_id = u.k', key: 'm.key' });
const KEYS: Record<GroupKey, KeyMap> = {
  action_type: { dim: 1, key: 'u.t' },
  action: { dim: 1, key: 'nullif(u.k, 0)::text' },
  tag: byAction(TAG_MAP(`t.class_name <> 'mitre_attack'`)),
  control: byAction(TAG_MAP(`t.tag_type = 'control'`)),
  tactic: byAction(TACTIC_MAP),
  technique: byAction(TECHNIQUE_MAP),
  actor: { dim: 2, key: 'nullif(u.k, 0)::text' },
  destination_actor: { dim: 3, key: 'nullif(u.k, 0)::text' },
  zone: { dim: 2, join: 'join nodes n on n.id = u.k', key: 'n.security_zone_id::text' },
  destination_zone: { dim: 3, join: 'join nodes n on n.id = u.k', key: 'n.security_zone_id::text' },
  simulation: { dim: 4, key: `case when u.k = 0 then 'none' else u.k::text end` },
  monitor: { dim: 5, key: 'nullif(u.k, 0)::text' },
};

const NO_SIMULATION = 'Single Actions';

/** Labels of a page of keys (one small lookup per key kind). */
async function labels(db: Db, by: GroupKey, keys: readonly string[]): Promise<Map<string, string>> {
  const ids = keys.filter((k) => /^\d+$/.test(k)).map(Number);
  const lookup = async (sql: string) => new Map((await db.query<{ id: number; name: string }>(sql, [ids])).map((r) => [String(r.id), r.name]));
  switch (by) {
    case 'action_type':
      return new Map(keys.map((k) => [k, ACTION_TYPE_LABELS[k as keyof typeof ACTION_TYPE_LABELS] ?? k]));
    case 'tactic':
    case 'technique':
      return new Map(keys.map((k) => [k, attackName(k) ?? k]));
    case 'tag':
    case 'control':
      return new Map(keys.map((k) => [k, k]));
    case 'action':
      return lookup('select id, name from actions where id = any($1::int[])');
    case 'actor':
    case 'destination_actor':
      return lookup(`select id, coalesce(nullif(friendly_name, ''), name) as name from nodes where id = any($1::int[])`);
    case 'zone':
    case 'destination_zone':
      return lookup('select id, name from zones where id = any($1::int[])');
    case 'monitor':
      return lookup('select id, name from monitors where id = any($1::int[])');
    case 'simulation': {
      const m = await lookup('select id, name from simulations where id = any($1::int[])');
      if (keys.includes('none')) m.set('none', NO_SIMULATION);
      return m;
    }
  }
}

/** Rows by a key (and, with `totals`, the counts of all job actions in range), in one statement. */
async function groupedRows(db: Db, s: ReportScope, by: GroupKey, limit: number | null, totals = false): Promise<{ rows: ResultRow[]; truncated: boolean; totals: ResultRow }> {
  const range = await rangeOf(db, s);
  const counted = range ? await keyedCounts(db, s, range, KEYS[by], limit, totals) : { rows: [], totals: undefined };
  const truncated = limit !== null && counted.rows.length > limit;
  const page = truncated ? counted.rows.slice(0, limit!) : counted.rows;
  const names = await labels(db, by, page.map((r) => r.key));
  return { rows: page.map((r) => withPercents(r.key, names.get(r.key) ?? r.key, toCounts(r))), truncated, totals: withPercents('all', 'All', toCounts(counted.totals)) };
}

/** GET /reports/results.json: result rows by a key, plus the totals. */
export async function results(db: Db, raw: Raw): Promise<ResultsAnswer> {
  const s = await reportScope(db, raw);
  const by = s.q.group_by as GroupKey;
  const { rows, truncated, totals } = await groupedRows(db, s, by, s.q.limit, true);
  return { group_by: by, start: iso(s.start), end: iso(s.end), rows, totals, truncated };
}

const DAY = 86_400_000;

/** GET /reports/time_series.json: `points` equal buckets from start to end (default: the last 30 days). */
export async function timeSeries(db: Db, raw: Raw, now = new Date()): Promise<TimeSeriesAnswer> {
  const endIn = typeof raw.end === 'string' && raw.end ? raw.end : now.toISOString();
  const startIn = typeof raw.start === 'string' && raw.start ? raw.start : new Date(Date.parse(endIn) - 30 * DAY).toISOString();
  const s = await reportScope(db, { ...raw, start: startIn, end: endIn });
  const start = s.start!.getTime();
  const end = s.end!.getTime();
  if (end <= start) throw badRequest('A time series needs end after start');
  const n = s.q.points;
  const step = Math.ceil((end - start) / n);
  const edges = Array.from({ length: n + 1 }, (_, i) => (i === n ? end : Math.min(end, start + i * step)));
  // The range's last instant counts where the raw formula puts it: floor((end - start) / step), at most n - 1.
  const buckets = await bucketCounts(db, s, edges, Math.min(n - 1, Math.floor((end - start) / step)));
  const points = Array.from({ length: n }, (_, i) => {
    const bs = new Date(start + i * step).toISOString();
    const be = new Date(Math.min(end, start + (i + 1) * step)).toISOString();
    return { ...withPercents(bs, bs, toCounts(buckets.get(i))), start: bs, end: be };
  });
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString(), step_ms: step, points };
}

/** GET /reports/mitre_taam_data.json: every Enterprise tactic in matrix order with its results. */
export async function mitreTaam(db: Db, raw: Raw): Promise<MitreTaamAnswer> {
  const s = await reportScope(db, raw);
  const { rows } = await groupedRows(db, s, 'tactic', null);
  const byCode = new Map(rows.map((r) => [r.key, r]));
  return {
    start: iso(s.start),
    end: iso(s.end),
    mitre_taam_data: ATTACK_TACTICS.map((t) => ({ tactic: { id: t.id, name: t.name }, results: byCode.get(t.id) ?? withPercents(t.id, t.name, { ...ZERO_COUNTS }) })),
  };
}

export const NO_RESULTS_COLOR = '#6b7280';

/** The colour of a tree map cell: pass when the matched share reaches the threshold. */
export function treeColor(matched: number, total: number, threshold: number): string {
  if (!total) return NO_RESULTS_COLOR;
  return (matched / total) * 100 >= threshold ? PASS_COLOR : FAIL_COLOR;
}

/** GET /reports/tree_map.json: name, total, matched (the `match` metric) and colour per key. */
export async function treeMap(db: Db, raw: Raw): Promise<TreeMapAnswer> {
  const s = await reportScope(db, raw);
  const by = s.q.group_by as GroupKey;
  const match = s.q.match as MatchMetric;
  const { rows } = await groupedRows(db, s, by, s.q.limit);
  return {
    group_by: by,
    match,
    threshold: s.q.threshold,
    rows: rows.map((r) => ({ key: r.key, name: r.label, total: r.total, matched: r[match], color: treeColor(r[match], r.total, s.q.threshold) })),
  };
}

/** GET /reports/mitre_matrix.json: per technique, its Actions (whatever the range) and its results in range. */
export async function mitreMatrix(db: Db, raw: Raw): Promise<MitreMatrixAnswer> {
  const s = await reportScope(db, raw);
  const { rows } = await groupedRows(db, s, 'technique', null);
  const counts = await db.query<{ code: string; n: number }>(
    `select t.code, count(distinct at.action_id)::int as n from tags t join action_tags at on at.tag_id = t.id
     join actions ac on ac.id = at.action_id and not ac.disabled and not ac.decommissioned
     where t.class_name = 'mitre_attack' and t.code like 'T%' and t.code not like 'TA%' group by t.code`,
  );
  const byCode = new Map(rows.map((r) => [r.key, r]));
  const codes = new Set([...counts.map((c) => c.code), ...byCode.keys()]);
  const actionsOf = new Map(counts.map((c) => [c.code, c.n]));
  return {
    start: iso(s.start),
    end: iso(s.end),
    techniques: [...codes].sort().map((id) => ({ id, actions: actionsOf.get(id) ?? 0, results: byCode.get(id) ?? withPercents(id, attackName(id) ?? id, { ...ZERO_COUNTS }) })),
  };
}

const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;
export const LATEST_RUNS = 3;

/** GET /reports/mitre_technique.json?id=T1059: the Actions tagged with a technique (or its sub-techniques) and their latest runs. */
export async function techniqueActions(db: Db, id: unknown): Promise<TechniqueActionsAnswer> {
  if (typeof id !== 'string' || !TECHNIQUE_ID.test(id)) throw badRequest('id must be an ATT&CK technique id such as T1059 or T1059.001');
  const name = attackName(id) ?? ATTACK_TECHNIQUES.find((t) => t.id === id)?.name;
  const actions = await db.query<{ id: number; vid: string; name: string; action_type: string; runs: TechniqueActionsAnswer['actions'][number]['latest_runs'] | string | null }>(
    `select ac.id, ac.vid, ac.name, ac.action_type,
       (select coalesce(json_agg(json_build_object('job_id', r.job_id, 'job_action_id', r.id, 'status', r.status, 'blocked', r.blocked, 'alerted', r.alerted,
          'events', r.events, 'job_time', r.job_time) order by r.job_id desc), '[]'::json)
        from (select a.id, a.job_id, a.status, a.blocked, a.alerted, a.events, j.job_time from job_actions a join jobs j on j.id = a.job_id
              where a.action_id = ac.id order by a.action_id, a.job_id desc limit ${LATEST_RUNS}) r) as runs
     from actions ac
     where ac.id in (select at.action_id from action_tags at join tags t on t.id = at.tag_id
                     where t.class_name = 'mitre_attack' and (t.code = $1 or t.code like $1 || '.%'))
     order by lower(ac.name), ac.id`,
    [id],
  );
  if (!name && !actions.length) throw notFound(`Technique ${id} is not in ATT&CK Enterprise and no Action is tagged with it.`);
  return {
    technique: { id, name: name ?? id },
    actions: actions.map((a) => {
      const runs = typeof a.runs === 'string' ? (JSON.parse(a.runs) as TechniqueActionsAnswer['actions'][number]['latest_runs']) : (a.runs ?? []);
      return { id: a.id, vid: a.vid, name: a.name, action_type: a.action_type, latest_runs: runs.map((r) => ({ ...r, job_time: iso(r.job_time) ?? '' })) };
    }),
  };
}

/**
 * GET /reports/mitre_untested.json: the ATT&CK techniques (and sub-techniques) that enabled Actions are
 * tagged with but that had no run (status ran) in the time range and filter, with those Actions, each
 * once, in technique order: what a simulation draft needs to test the gaps.
 */
export async function untestedTechniques(db: Db, raw: Raw): Promise<UntestedAnswer> {
  const s = await reportScope(db, raw);
  const { rows } = await groupedRows(db, s, 'technique', null);
  const tested = rows.filter((r) => r.total > 0).map((r) => r.key);
  const tagged = await db.query<{ code: string; id: number; vid: string; name: string }>(
    `select distinct t.code, ac.id, ac.vid, ac.name from tags t join action_tags at on at.tag_id = t.id
     join actions ac on ac.id = at.action_id and not ac.disabled and not ac.decommissioned
     where t.class_name = 'mitre_attack' and t.code like 'T%' and t.code not like 'TA%' and not (t.code = any($1::text[]))
     order by t.code, ac.name, ac.id`,
    [tested],
  );
  const techniques = new Map<string, number>();
  const actions = new Map<number, UntestedAnswer['actions'][number]>();
  for (const r of tagged) {
    techniques.set(r.code, (techniques.get(r.code) ?? 0) + 1);
    const a = actions.get(r.id) ?? actions.set(r.id, { id: r.id, vid: r.vid, name: r.name, techniques: [] }).get(r.id)!;
    a.techniques.push(r.code);
  }
  return {
    start: iso(s.start),
    end: iso(s.end),
    techniques: [...techniques].map(([id, n]) => ({ id, name: attackName(id) ?? id, actions: n })),
    actions: [...actions.values()],
  };
}

/** Each panel source's answer (a ReportAnswer of its type) for a raw query. */
export const PANEL_ANSWERS: { [K in PanelSource]: (db: Db, q: Raw) => Promise<Extract<ReportAnswer, { type: K }>> } = {
  results: async (db, q) => ({ type: 'results', answer: await results(db, q) }),
  series: async (db, q) => ({ type: 'series', answer: await timeSeries(db, q) }),
  taam: async (db, q) => ({ type: 'taam', answer: await mitreTaam(db, q) }),
  tree: async (db, q) => ({ type: 'tree', answer: await treeMap(db, q) }),
};

/**
 * POST /reports/panels.json: every panel of a dashboard in one call. Queries asked twice (panels showing
 * the same figures) are answered once; a refused query (400 with its message) is answered as an error
 * in its place and the others still answer.
 */
export async function panelAnswers(db: Db, body: unknown): Promise<PanelsAnswer> {
  const { queries } = validate(panelsRequestSchema, body);
  const done = new Map<string, Promise<PanelAnswer>>();
  const answers: PanelAnswer[] = [];
  for (const { source, query } of queries) {
    const type = source as PanelSource;
    const key = JSON.stringify([type, Object.entries(query as Raw).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
    let answer = done.get(key);
    if (!answer) {
      answer = PANEL_ANSWERS[type](db, query as Raw).catch((e: unknown): PanelAnswer => {
        if (e instanceof HttpError) return { type, error: { status: e.statusCode, message: e.message } };
        throw e;
      });
      done.set(key, answer);
    }
    // One query at a time: the embedded database answers one statement at a time anyway.
    answers.push(await answer);
  }
  return { answers };
}
