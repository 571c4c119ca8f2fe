import { badRequest } from '../http-errors';
import { FilterTreeError, parseFilterRules, type FilterTarget, type ParsedCondition, type ParsedGroup, type ParsedNode } from '../../src/api/contracts/filters';
import { SCHEDULED_PROCESS } from '../../src/api/contracts/jobs';

/**
 * Rule trees to SQL (jobs-simulations-network-map.md sections 3 and 5). Every value goes through
 * `param`; column names come from the tables below, never from the request.
 *
 * - Jobs (alias `j`): job fields are columns of jobs; job action fields hold for one job action: the
 *   job_action conditions directly inside one 'and' node are checked together on the same job action
 *   (one `exists` over job_actions), those under an 'or' each on their own.
 * - Actions (alias `ac`): columns of actions, tags and dimensions through their link tables.
 * - Text operators are case-insensitive and literal (strpos/starts_with, no LIKE patterns); dimension
 *   values include the nodes below the chosen one.
 */

export type Param = (value: unknown) => string;

interface FieldSql {
  /** Builds the condition for a row alias. */
  sql(alias: string, c: ParsedCondition, p: Param): string;
}

const lowerAll = (vs: readonly string[]) => vs.map((v) => v.toLowerCase());

/** A text column: case-insensitive text and set operators (`exact`: set operators compare as given). */
function textField(column: string, exact = false): FieldSql {
  return {
    sql(alias, c, p) {
      const col = `${alias}.${column}`;
      const low = `lower(coalesce(${col}, ''))`;
      const v = c.values[0]!.toLowerCase();
      switch (c.operator) {
        case 'equals':
          return `${low} = ${p(v)}`;
        case 'contains':
          return `strpos(${low}, ${p(v)}) > 0`;
        case 'not_contains':
          return `strpos(${low}, ${p(v)}) = 0`;
        case 'starts_with':
          return `starts_with(${low}, ${p(v)})`;
        case 'ends_with':
          return `right(${low}, ${p(v.length)}) = ${p(v)}`;
        case 'in':
          return exact ? `${col} = any(${p(c.values)}::text[])` : `${low} = any(${p(lowerAll(c.values))}::text[])`;
        case 'not_in':
          return exact ? `coalesce(${col} <> all(${p(c.values)}::text[]), true)` : `${low} <> all(${p(lowerAll(c.values))}::text[])`;
      }
    },
  };
}

/** A number column with comma-number-range values. */
function numberField(column: string): FieldSql {
  return {
    sql(alias, c, p) {
      const col = `${alias}.${column}`;
      const any = c.ranges.map((r) => (r.lo === r.hi ? `${col} = ${p(r.lo)}::bigint` : `${col} between ${p(r.lo)}::bigint and ${p(r.hi)}::bigint`)).join(' or ');
      return c.operator === 'not_in' ? `not (${any})` : `(${any})`;
    },
  };
}

/** Dimension nodes chosen (ids as text) and every node below them, of one dimension type. */
function dimensionField(type: string, actionId: (alias: string) => string): FieldSql {
  return {
    sql(alias, c, p) {
      const ids = c.values.filter((v) => /^\d{1,9}$/.test(v)).map(Number);
      const has = `exists (select 1 from action_dimensions ad where ad.action_id = ${actionId(alias)} and ad.dimension_type = ${p(type)} and ad.dimension_id in (
        with recursive d(id) as (select id from dimensions where id = any(${p(ids)}::int[]) union all select x.id from dimensions x join d on x.parent_id = d.id)
        select id from d))`;
      return c.operator === 'not_in' ? `not ${has}` : has;
    },
  };
}

const DIMENSIONS = ['attack_vector', 'behavior_type', 'stage_of_attack'] as const;

/**
 * The job's name: a positive text match on a non-empty value is looked up in job_names (every job name
 * ever used, lower-cased, kept by triggers: tens of rows where jobs are a million) and matched through
 * the jobs' lower(name) index, instead of testing every job's name.
 */
const jobNameField: FieldSql = {
  sql(alias, c, p) {
    const v = c.values[0]?.toLowerCase() ?? '';
    const byName: Record<string, (x: string) => string> = {
      equals: (x) => `n.lname = ${x}`,
      contains: (x) => `strpos(n.lname, ${x}) > 0`,
      starts_with: (x) => `starts_with(n.lname, ${x})`,
      ends_with: (x) => `right(n.lname, ${p(v.length)}) = ${x}`,
    };
    const match = byName[c.operator];
    if (!match || !v) return textField('name').sql(alias, c, p);
    return `lower(${alias}.name) = any(array(select n.lname from job_names n where ${match(p(v))}))`;
  },
};

/**
 * Who ran the job: each value is a name as the typeahead offers it ("Ada Admin"), or one whole word of
 * a user's name, as typed in the jobs filter text (`ran_by:ada`): the words are turned into the names
 * they name once (the users, and the scheduler), and each job compares its ran_by with those.
 */
const ranByField: FieldSql = {
  sql(alias, c, p) {
    const values = p(lowerAll(c.values));
    const names = `(${values}::text[] || array(select lower(u.n) from (select vigil_job_ran_by(id) as n from users union select ${p(SCHEDULED_PROCESS)}) u
      where string_to_array(lower(u.n), ' ') && ${values}::text[]))`;
    const low = `lower(coalesce(${alias}.ran_by, ''))`;
    return c.operator === 'not_in' ? `${low} <> all${names}` : `${low} = any${names}`;
  },
};

const JOB_FIELDS: Record<string, FieldSql> = {
  id: numberField('id'),
  name: jobNameField,
  status: textField('status', true),
  ran_by: ranByField,
  assessment_name: textField('assessment_name'),
  published: {
    sql: (alias, c) => (c.values[0] === 'yes' ? `${alias}.published_status = 2` : `${alias}.published_status <> 2`),
  },
};

const JOB_ACTION_FIELDS: Record<string, FieldSql> = {
  vid: textField('sim_action_vid'),
  name: textField('name'),
  action_type: textField('action_type', true),
  status: textField('status', true),
  events: numberField('events'),
  ...Object.fromEntries(DIMENSIONS.map((d) => [d, dimensionField(d, (a) => `${a}.action_id`)])),
};

const ACTION_FIELDS: Record<string, FieldSql> = {
  id: numberField('id'),
  vid: textField('vid'),
  name: textField('name'),
  description: textField('description'),
  action_type: textField('action_type', true),
  tags: {
    sql(alias, c, p) {
      const has = `exists (select 1 from action_tags at join tags t on t.id = at.tag_id where at.action_id = ${alias}.id and lower(t.name) = any(${p(lowerAll(c.values))}::text[]))`;
      return c.operator === 'not_in' ? `not ${has}` : has;
    },
  },
  ...Object.fromEntries(DIMENSIONS.map((d) => [d, dimensionField(d, (a) => `${a}.id`)])),
};

function fieldOf(table: Record<string, FieldSql>, c: ParsedCondition): FieldSql {
  const f = table[c.field];
  // The parser only lets configured fields through; a field configured without SQL is a programming error.
  if (!f) throw new Error(`No SQL for ${c.object}.${c.field}`);
  return f;
}

const joinSql = (parts: string[], op: 'and' | 'or') => (parts.length === 1 ? parts[0]! : `(${parts.join(` ${op} `)})`);

/** The job actions of job j, as alias a: `from ... where ...` (the condition on a is and-ed after it). */
export const JOB_ACTIONS_OF_JOB = 'job_actions a where a.job_id = j.id';

function jobsSql(n: ParsedNode, p: Param, actions: string): string {
  if (n.kind === 'condition') {
    if (n.object === 'job') return fieldOf(JOB_FIELDS, n).sql('j', n, p);
    return `exists (select 1 from ${actions} and ${fieldOf(JOB_ACTION_FIELDS, n).sql('a', n, p)})`;
  }
  if (n.kind === 'or') return joinSql(n.children.map((c) => jobsSql(c, p, actions)), 'or');
  const actionConds = n.children.filter((c): c is ParsedCondition => c.kind === 'condition' && c.object === 'job_action');
  const parts = n.children.filter((c) => !(c.kind === 'condition' && c.object === 'job_action')).map((c) => jobsSql(c, p, actions));
  if (actionConds.length) {
    parts.push(`exists (select 1 from ${actions} and ${actionConds.map((c) => fieldOf(JOB_ACTION_FIELDS, c).sql('a', c, p)).join(' and ')})`);
  }
  return joinSql(parts, 'and');
}

function actionsSql(n: ParsedNode, p: Param): string {
  if (n.kind === 'condition') return fieldOf(ACTION_FIELDS, n).sql('ac', n, p);
  return joinSql(n.children.map((c) => actionsSql(c, p)), n.kind);
}

/** Parses a rule list for a target; a malformed tree answers 400 with the parser's message. */
export function parseRules(target: FilterTarget, rules: unknown): ParsedGroup {
  try {
    return parseFilterRules(target, rules);
  } catch (e) {
    if (e instanceof FilterTreeError) throw badRequest(`structuredFilter.rules: ${e.message}`);
    throw e;
  }
}

/**
 * The jobs list's rule compiler (installed with setJobRuleCompiler): one condition over `jobs j`.
 * `actions` replaces the job's job actions (the report facet classes of server/reports/scope.ts give
 * their sets of VIDs or event counts as rows a).
 */
export function compileJobRules(rules: readonly unknown[], p: Param, actions = JOB_ACTIONS_OF_JOB): string {
  return jobsSql(parseRules('jobs', rules), p, actions);
}

/** One condition over `actions ac`. */
export function compileActionRules(rules: readonly unknown[], p: Param): string {
  return actionsSql(parseRules('actions', rules), p);
}
