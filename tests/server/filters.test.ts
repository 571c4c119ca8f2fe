import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { startTestServer, type Session, type TestServer } from './helpers';
import {
  FILTER_CONFIGS,
  INVALID_INPUT,
  PLEASE_ENTER_VALUE,
  RULE_NEEDS_CONDITION,
  parseFilterRules,
  type FilterCondition,
  type FilterFieldConfig,
  type FilterNode,
  type FilterTarget,
  type ParsedCondition,
  type ParsedNode,
  type PageFilterData,
  type SavedFilter,
} from '@/api/contracts/filters';
import type { JobListAnswer } from '@/api/contracts/jobs';

let s: TestServer;
let admin: Session;
let operator: Session;

interface JobRow { id: number; name: string; status: string; ran_by: string; assessment_name: string | null; published_status: number }
interface JobActionRow { job_id: number; sim_action_vid: string; name: string; action_type: string; status: string; events: number; action_id: number | null }
interface ActionRow { id: number; vid: string; name: string; description: string; action_type: string }

let jobs: JobRow[] = [];
let jobActions: Map<number, JobActionRow[]>;
let actions: ActionRow[] = [];
/** Dimension ids of each action, per dimension type. */
let actionDims: Map<string, number>;
let dimParent: Map<number, number | null>;
let actionTags: Map<number, string[]>;

beforeAll(async () => {
  s = await startTestServer();
  await seedDemo(s.db, { jobs: 300 });
  [admin, operator] = await Promise.all([s.signIn('admin'), s.signIn('operator')]);
  jobs = await s.db.query<JobRow>('select id, name, status, ran_by, assessment_name, published_status from jobs order by id');
  jobActions = new Map();
  for (const a of await s.db.query<JobActionRow>('select job_id, sim_action_vid, name, action_type, status, events, action_id from job_actions')) {
    jobActions.set(a.job_id, [...(jobActions.get(a.job_id) ?? []), a]);
  }
  actions = await s.db.query<ActionRow>('select id, vid, name, description, action_type from actions order by id');
  actionDims = new Map((await s.db.query<{ action_id: number; dimension_type: string; dimension_id: number }>('select * from action_dimensions')).map((r) => [`${r.action_id}:${r.dimension_type}`, r.dimension_id]));
  dimParent = new Map((await s.db.query<{ id: number; parent_id: number | null }>('select id, parent_id from dimensions')).map((r) => [r.id, r.parent_id]));
  actionTags = new Map();
  for (const t of await s.db.query<{ action_id: number; name: string }>('select at.action_id, t.name from action_tags at join tags t on t.id = at.tag_id')) {
    actionTags.set(t.action_id, [...(actionTags.get(t.action_id) ?? []), t.name.toLowerCase()]);
  }
}, 180_000);
afterAll(async () => {
  await s?.close();
});

// ---------------------------------------------------------------------------------------------
// The reference: the same tree evaluated in memory over the rows read above.

const under = (node: number | undefined, chosen: readonly number[]): boolean => {
  for (let n: number | null | undefined = node; n !== undefined && n !== null; n = dimParent.get(n)) if (chosen.includes(n)) return true;
  return false;
};

function textMatch(raw: string | null, c: ParsedCondition, exact: boolean): boolean {
  const v = (raw ?? '').toLowerCase();
  const x = c.values[0]!.toLowerCase();
  switch (c.operator) {
    case 'equals':
      return v === x;
    case 'contains':
      return v.includes(x);
    case 'not_contains':
      return !v.includes(x);
    case 'starts_with':
      return v.startsWith(x);
    case 'ends_with':
      return v.endsWith(x);
    case 'in':
      return exact ? c.values.includes(raw ?? '\u0000') : c.values.map((y) => y.toLowerCase()).includes(v);
    case 'not_in':
      return exact ? !c.values.includes(raw ?? '\u0000') : !c.values.map((y) => y.toLowerCase()).includes(v);
  }
}
const numberMatch = (n: number, c: ParsedCondition) => {
  const hit = c.ranges.some((r) => n >= r.lo && n <= r.hi);
  return c.operator === 'not_in' ? !hit : hit;
};
const setMatch = (hit: boolean, c: ParsedCondition) => (c.operator === 'not_in' ? !hit : hit);
const dimMatch = (actionId: number | null, c: ParsedCondition) =>
  setMatch(actionId !== null && under(actionDims.get(`${actionId}:${c.field}`), c.values.map(Number)), c);

function jobCond(j: JobRow, c: ParsedCondition): boolean {
  switch (c.field) {
    case 'id':
      return numberMatch(j.id, c);
    case 'status':
      return textMatch(j.status, c, true);
    case 'published':
      return c.values[0] === 'yes' ? j.published_status === 2 : j.published_status !== 2;
    case 'ran_by': {
      // A name, or one whole word of a user's name (every seeded ran_by is a user's name or the scheduler's).
      const v = j.ran_by.toLowerCase();
      const hit = c.values.some((x) => x.toLowerCase() === v || v.split(' ').includes(x.toLowerCase()));
      return c.operator === 'not_in' ? !hit : hit;
    }
    default:
      return textMatch(j[c.field as 'name' | 'assessment_name'], c, false);
  }
}
function actionRunCond(a: JobActionRow, c: ParsedCondition): boolean {
  switch (c.field) {
    case 'vid':
      return textMatch(a.sim_action_vid, c, false);
    case 'name':
      return textMatch(a.name, c, false);
    case 'action_type':
    case 'status':
      return textMatch(a[c.field], c, true);
    case 'events':
      return numberMatch(a.events, c);
    default:
      return dimMatch(a.action_id, c);
  }
}
function jobMatches(j: JobRow, n: ParsedNode): boolean {
  if (n.kind === 'condition') return n.object === 'job' ? jobCond(j, n) : (jobActions.get(j.id) ?? []).some((a) => actionRunCond(a, n));
  if (n.kind === 'or') return n.children.some((c) => jobMatches(j, c));
  const runConds = n.children.filter((c): c is ParsedCondition => c.kind === 'condition' && c.object === 'job_action');
  const others = n.children.filter((c) => !(c.kind === 'condition' && c.object === 'job_action'));
  return others.every((c) => jobMatches(j, c)) && (!runConds.length || (jobActions.get(j.id) ?? []).some((a) => runConds.every((c) => actionRunCond(a, c))));
}
function actionMatches(a: ActionRow, n: ParsedNode): boolean {
  if (n.kind === 'condition') return actionCond(a, n);
  return n.kind === 'or' ? n.children.some((c) => actionMatches(a, c)) : n.children.every((c) => actionMatches(a, c));
}
function actionCond(a: ActionRow, n: ParsedCondition): boolean {
  switch (n.field) {
    case 'id':
      return numberMatch(a.id, n);
    case 'action_type':
      return textMatch(a.action_type, n, true);
    case 'tags':
      return setMatch((actionTags.get(a.id) ?? []).some((t) => n.values.map((v) => v.toLowerCase()).includes(t)), n);
    case 'vid':
    case 'name':
    case 'description':
      return textMatch(a[n.field], n, false);
    default:
      return dimMatch(a.id, n);
  }
}

// ---------------------------------------------------------------------------------------------
// Calls

const structured = (rules: FilterNode[]) => `filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules }))}`;

async function listJobIds(rules: FilterNode[]): Promise<number[]> {
  const out: number[] = [];
  for (let page = 0; ; page++) {
    const res = await s.call('GET', `/jobs/list_page_data.json?size=100&page=${page}&${structured(rules)}`, { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json<JobListAnswer>();
    const rows = a.filtered_jobs ?? a.jobs ?? [];
    out.push(...rows.map((r) => r.id));
    if (rows.length < 100) return out;
  }
}
async function listActionIds(rules: FilterNode[]): Promise<number[]> {
  const res = await s.call('POST', '/manage_sims/quick_action_ids.json', { as: admin, body: { rules: JSON.stringify(rules), include_disabled: true, sort: 'vid' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<number[]>();
}

/** A value for a field and operator taken from the seeded rows, so most conditions match something. */
function sampleValue(target: FilterTarget, object: string, f: FilterFieldConfig, op: string): string | string[] {
  const job = jobs[7]!;
  const run = [...jobActions.values()][3]![0]!;
  const action = actions[5]!;
  const dimOf = (actionId: number | null) => {
    const id = actionDims.get(`${actionId}:${f.match_field}`);
    // 'in' takes the parent (children count as in), 'not_in' the node itself: a parent may be a type's root, which holds every action.
    const parent = id === undefined || op === 'not_in' ? undefined : dimParent.get(id);
    return [String(parent ?? id ?? 1)];
  };
  const text = (v: string) => (op === 'equals' ? v.toUpperCase() : op === 'starts_with' ? v.slice(0, 4) : op === 'ends_with' ? v.slice(-4) : v.slice(2, 7));
  if (f.selector_type === 'comma_number_range') return f.match_field === 'events' ? '1-3, 7' : `${jobs[10]!.id}-${jobs[40]!.id}, ${jobs[90]!.id}`;
  if (f.selector_type === 'dropdown') {
    const want = f.match_field === 'published' ? 'yes' : f.match_field === 'action_type' ? 'dns' : object === 'job' ? 'completed' : 'ran';
    return (f.options!.find((o) => o.value === want) ?? f.options![0]!).value;
  }
  if (target === 'jobs' && object === 'job') {
    // A whole name and a first name (`ran_by:ada` in the jobs filter text).
    if (f.match_field === 'ran_by') return [job.ran_by, jobs.find((j) => j.ran_by !== job.ran_by && j.ran_by.includes(' '))?.ran_by.split(' ')[0] ?? 'Scheduled Process'];
    return text(f.match_field === 'assessment_name' ? (jobs.find((j) => j.assessment_name)?.assessment_name ?? 'x') : job.name);
  }
  if (object === 'job_action') {
    if (f.match_field === 'vid') return [run.sim_action_vid.toLowerCase(), 'A000-000'];
    if (f.match_field === 'name') return text(run.name);
    return dimOf(run.action_id);
  }
  if (f.match_field === 'vid') return [action.vid, actions[9]!.vid];
  if (f.match_field === 'tags') return [...(actionTags.get(action.id) ?? ['none']).slice(0, 1), 'no such tag'];
  if (f.match_field === 'name' || f.match_field === 'description') return text(action[f.match_field] || 'abc');
  return dimOf(action.id);
}

/** Every (object, field, operator) of a target; the value is read from the seeded rows when the test runs. */
function casesOf(target: FilterTarget): { title: string; cond: () => FilterCondition }[] {
  return FILTER_CONFIGS[target].flatMap((o) =>
    o.match_fields.flatMap((f) =>
      f.operators.map((op) => ({
        title: `${o.match_object}.${f.match_field} ${op}`,
        cond: () => ({ match_object: o.match_object, match_field: f.match_field, operator: op, value: sampleValue(target, o.match_object, f, op) }),
      })),
    ),
  );
}

describe('rule trees evaluated in SQL', () => {
  it.each(casesOf('jobs'))('JOB-036 JOB-037 jobs: $title gives the rows of the in-memory reference', async ({ cond }) => {
    const rules: FilterNode[] = [{ operator: 'or', conditions: [{ operator: 'and', conditions: [cond()] }] }];
    const want = jobs.filter((j) => jobMatches(j, parseFilterRules('jobs', rules))).map((j) => j.id).sort((a, b) => b - a);
    expect(want.length, 'the sample value matches some seeded jobs').toBeGreaterThan(0);
    expect(await listJobIds(rules)).toEqual(want);
  });

  it.each(casesOf('actions'))('JOB-036 JOB-037 actions: $title gives the rows of the in-memory reference', async ({ cond }) => {
    const rules: FilterNode[] = [{ operator: 'or', conditions: [{ operator: 'and', conditions: [cond()] }] }];
    const want = actions.filter((a) => actionMatches(a, parseFilterRules('actions', rules))).map((a) => a.id).sort((a, b) => a - b);
    expect(want.length, 'the sample value matches some seeded actions').toBeGreaterThan(0);
    expect((await listActionIds(rules)).sort((a, b) => a - b)).toEqual(want);
  });

  it('JOB-016 JOB-036 two rules joined by or, conditions joined by and; job action conditions hold for one job action', async () => {
    const run = [...jobActions.values()][5]![0]!;
    const rules: FilterNode[] = [
      {
        operator: 'or',
        conditions: [
          { operator: 'and', conditions: [{ match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' }, { match_object: 'job_action', match_field: 'action_type', operator: 'in', value: run.action_type }, { match_object: 'job_action', match_field: 'events', operator: 'in', value: '1-5' }] },
          { operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator: 'contains', value: jobs[3]!.name.slice(0, 6) }] },
        ],
      },
    ];
    const want = jobs.filter((j) => jobMatches(j, parseFilterRules('jobs', rules))).map((j) => j.id).sort((a, b) => b - a);
    expect(want.length).toBeGreaterThan(0);
    expect(await listJobIds(rules)).toEqual(want);
  });

  it('JOB-033 the events structured filter and rules apply together', async () => {
    const rules: FilterNode[] = [{ match_object: 'job', match_field: 'id', operator: 'in', value: `1-${jobs[150]!.id}` }];
    const res = await s.call('GET', `/jobs/list_page_data.json?size=100&filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ events: 'present', rules }))}`, { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    const got = (res.json<JobListAnswer>().filtered_jobs ?? []).map((r) => r.id);
    const want = jobs.filter((j) => j.id <= jobs[150]!.id && (jobActions.get(j.id) ?? []).some((a) => a.events > 0)).map((j) => j.id).sort((a, b) => b - a).slice(0, 100);
    expect(got).toEqual(want);
  });
});

describe('malformed trees answer 400 with a message', () => {
  const cond = (over: Partial<Record<keyof FilterCondition, unknown>>) => ({ match_object: 'job', match_field: 'name', operator: 'contains', value: 'a', ...over });
  const nest = (depth: number): unknown => (depth === 0 ? cond({}) : { operator: depth % 2 ? 'or' : 'and', conditions: [nest(depth - 1)] });
  const cases: [string, unknown, RegExp][] = [
    ['unknown object', [cond({ match_object: 'planet' })], /unknown match_object 'planet'/],
    ['unknown field', [cond({ match_field: 'colour' })], /unknown match_field 'colour'/],
    ['unknown operator', [cond({ operator: 'like' })], /unknown operator 'like'/],
    ['operator the field does not allow', [cond({ match_field: 'id', operator: 'contains', value: '1' })], /unknown operator 'contains' for job.id/],
    ['wrong value type (number)', [cond({ value: 5 })], /must be a text/],
    ['wrong value type (text for a list)', [cond({ match_field: 'ran_by', operator: 'in', value: 'x' })], /must be a list of texts/],
    ['empty value', [cond({ value: '  ' })], new RegExp(PLEASE_ENTER_VALUE)],
    ['list with no non-empty entries', [cond({ match_field: 'ran_by', operator: 'in', value: ['', ' '] })], new RegExp(PLEASE_ENTER_VALUE)],
    ['malformed range', [cond({ match_field: 'id', operator: 'in', value: '1--3' })], new RegExp(INVALID_INPUT)],
    ['empty rule', [{ operator: 'or', conditions: [{ operator: 'and', conditions: [] }] }], new RegExp(RULE_NEEDS_CONDITION.replace('.', '\\.'))],
    ['bad node operator', [{ operator: 'xor', conditions: [cond({})] }], /operator must be 'and' or 'or'/],
    ['dropdown value not offered', [cond({ match_field: 'status', operator: 'in', value: 'exploded' })], /must be one of/],
    ['nesting too deep', [nest(12)], /nested too deeply/],
    ['not a list', { operator: 'or' }, /rules must be a list/],
  ];
  it.each(cases)('JOB-063 JOB-064 JOB-065 %s', async (_t, rules, message) => {
    const res = await s.call('GET', `/jobs/list_page_data.json?filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules }))}`, { as: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(message);
    const lib = await s.call('GET', `/manage_sims/v2/actions/library_actions_list?rules=${encodeURIComponent(JSON.stringify(rules).replaceAll('"job"', '"action"').replaceAll('ran_by', 'tags'))}`, { as: admin });
    expect(lib.statusCode).toBe(400);
  });

  /** The statements the director runs on the file's database while `fn` runs (a transaction counts as one). */
  const statementsDuring = async <T,>(fn: () => Promise<T>): Promise<{ result: T; ran: string[] }> => {
    const query = vi.spyOn(s.db, 'query');
    const transaction = vi.spyOn(s.db, 'transaction');
    try {
      const result = await fn();
      return { result, ran: [...query.mock.calls.map(([sql]) => sql), ...transaction.mock.calls.map(() => 'transaction')] };
    } finally {
      query.mockRestore();
      transaction.mockRestore();
    }
  };

  it('JOB-036 10,000 conditions answer 400 at once: the refusal runs no statement but the session check', async () => {
    // The same tree on the jobs list and, about actions, on the quick action ids.
    const both = (rules: unknown) => async () => {
      const quick = await s.call('POST', '/manage_sims/quick_action_ids.json', { as: admin, body: { rules: JSON.stringify(rules).replaceAll('"job"', '"action"') } });
      const list = await s.call('GET', `/jobs/list_page_data.json?filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules }))}`, { as: admin });
      return [quick, list] as const;
    };
    const huge = [{ operator: 'or', conditions: [{ operator: 'and', conditions: Array.from({ length: 10_000 }, () => cond({})) }] }];
    const { result: [res, jobsRes], ran } = await statementsDuring(both(huge));
    expect(res.statusCode).toBe(400);
    expect(jobsRes.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/too many conditions/);
    expect(jobsRes.json<{ error: string }>().error).toMatch(/too long/);
    // "At once" without a clock: nothing is counted or listed (how long a refusal takes is a figure of
    // `npm run bench:filters`). The same watch sees the statements of a one-condition tree that is answered.
    expect(ran.filter((sql) => !/\bfrom sessions\b/.test(sql))).toEqual([]);
    const { result: answered, ran: answeredRan } = await statementsDuring(both([cond({})]));
    expect(answered.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answeredRan.filter((sql) => !/\bfrom sessions\b/.test(sql)).length).toBeGreaterThan(1);
    const justOver = [{ operator: 'and', conditions: Array.from({ length: 101 }, () => cond({})) }];
    const over = await s.call('GET', `/jobs/list_page_data.json?filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules: justOver }))}`, { as: admin });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ error: string }>().error).toMatch(/too many conditions \(at most 100\)/);
  });
});

describe('lookup, filter source and dimension children', () => {
  it('JOB-081 GET /lookup/{matchObject}/{matchField} lists options holding the typed text', async () => {
    const res = await s.call('GET', `/lookup/job/ran_by?q=${encodeURIComponent('sched')}`, { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { value: string }[] }>().data.map((o) => o.value)).toContain('Scheduled Process');
    const dims = (await s.call('GET', '/lookup/action/attack_vector?q=phish', { as: operator })).json<{ data: { value: string; label: string }[] }>().data;
    expect(dims.some((d) => d.label === 'Phishing' && /^\d+$/.test(d.value))).toBe(true);
    const status = (await s.call('GET', '/lookup/job/status', { as: operator })).json<{ data: unknown[] }>().data;
    expect(status).toHaveLength(9);
    expect((await s.call('GET', '/lookup/planet/name', { as: operator })).statusCode).toBe(404);
    expect((await s.call('GET', '/lookup/job/name?limit=1000', { as: operator })).statusCode).toBe(400);
    expect((await s.call('GET', '/lookup/job/name')).statusCode).toBe(401);
  });

  it('JOB-082 GET {filterSrc} answers [id,label] objects, timezone, timezone_offset and root_dimensions', async () => {
    const res = await s.call('GET', '/filters/page_filter_data.json', { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<PageFilterData>();
    // Values as stored, labels as the Jobs pane shows them (issue 21: no lowercase status in the page filter).
    expect(d.objects.job_statuses).toContainEqual(['completed', 'Completed']);
    expect(typeof d.timezone).toBe('string');
    expect(typeof d.timezone_offset).toBe('number');
    expect(d.root_dimensions.map((r) => r[1])).toEqual(['Attack Vector', 'Behavior Type', 'Stage of Attack']);
    expect((await s.call('GET', '/filters/page_filter_data.json?target=planets', { as: operator })).statusCode).toBe(400);
  });

  it('JOB-083 GET /reports/dimension_children.json?type= answers [label,id] pairs of the three default types', async () => {
    const res = await s.call('GET', `/reports/dimension_children.json?type=${encodeURIComponent('Attack Vector')}`, { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    const pairs = res.json<[string, number][]>();
    expect(pairs[0]).toEqual(['General Malware', expect.any(Number)]);
    expect(pairs.map((p) => p[0])).toContain('General Malware / Ransomware');
    const bad = await s.call('GET', '/reports/dimension_children.json?type=Covert', { as: operator });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/type must be one of/);
    expect((await s.call('GET', '/reports/dimension_children.json', { as: operator })).statusCode).toBe(400);
  });
});

describe('saved filters', () => {
  it('JOB-036 a filter is saved per user under a name, listed, replaced by name and deleted; a malformed one is refused', async () => {
    const filter = { rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator: 'contains', value: 'dns' }] }] }], page: { status: 'completed' } };
    const created = await s.call('POST', '/filters/saved.json', { as: operator, body: { target: 'jobs', name: 'DNS jobs', filter } });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<{ data: SavedFilter }>().data;
    expect(saved.filter).toEqual(filter);
    const again = await s.call('POST', '/filters/saved.json', { as: operator, body: { target: 'jobs', name: 'DNS jobs', filter: { rules: [], page: {} } } });
    expect(again.json<{ data: SavedFilter }>().data.id).toBe(saved.id);
    const mine = (await s.call('GET', '/filters/saved.json?target=jobs', { as: operator })).json<{ data: SavedFilter[] }>().data;
    expect(mine.map((f) => f.name)).toEqual(['DNS jobs']);
    expect((await s.call('GET', '/filters/saved.json', { as: admin })).json<{ data: SavedFilter[] }>().data).toEqual([]);
    expect((await s.call('DELETE', `/filters/saved/${saved.id}.json`, { as: admin })).statusCode).toBe(404);
    const bad = await s.call('POST', '/filters/saved.json', { as: operator, body: { target: 'jobs', name: 'x', filter: { rules: [{ match_object: 'planet' }], page: {} } } });
    expect(bad.statusCode).toBe(400);
    expect((await s.call('POST', '/filters/saved.json', { as: operator, body: { target: 'jobs', name: ' ', filter: { rules: [], page: {} } } })).statusCode).toBe(400);
    expect((await s.call('DELETE', `/filters/saved/${saved.id}.json`, { as: operator })).statusCode).toBe(200);
    expect((await s.call('DELETE', '/filters/saved/abc.json', { as: operator })).statusCode).toBe(400);
  });
});
