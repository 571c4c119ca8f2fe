import { describe, expect, it } from 'vitest';
import { parseFilterRules, type FilterCondition } from '@/api/contracts/filters';
import { FILTER_WORDS_HINT, QUALIFIER_FIELDS, filterRules, parseJobFilter } from './filter-qualifiers';
import { defaultFilter, toListRequest } from './stored-filter';

const job = (match_field: string, operator: string, value: string | string[]): FilterCondition => ({ match_object: 'job', match_field, operator, value });

/** THE table of the jobs filter language: text typed (pane or `jobs.export filter=`) → free text, conditions, problems. */
const TABLE: [string, string, FilterCondition[], string[]][] = [
  ['status:completed', '', [job('status', 'in', 'completed')], []],
  ['status:Completed', '', [job('status', 'in', 'completed')], []],
  ['ran_by:ada', '', [job('ran_by', 'in', ['ada'])], []],
  ['ran_by:ada,bob', '', [job('ran_by', 'in', ['ada', 'bob'])], []],
  ['ran_by:"Ada Admin" nightly', 'nightly', [job('ran_by', 'in', ['Ada Admin'])], []],
  ['name:"segmentation east"', '', [job('name', 'contains', 'segmentation east')], []],
  ['id:300-321', '', [job('id', 'in', '300-321')], []],
  ['id:300-321,400', '', [job('id', 'in', '300-321,400')], []],
  ['published:yes', '', [job('published', 'equals', 'yes')], []],
  ['name:seg', '', [job('name', 'contains', 'seg')], []],
  ['assessment_name:q3', '', [job('assessment_name', 'contains', 'q3')], []],
  ['nightly', 'nightly', [], []],
  ['  nightly status:completed ran_by:ada  ', 'nightly', [job('status', 'in', 'completed'), job('ran_by', 'in', ['ada'])], []],
  ['Segmentation: east', 'Segmentation: east', [], []],
  ['vendor:acme', 'vendor:acme', [], ['"vendor:acme": vendor is not a filter word']],
  ['status:', 'status:', [], ['"status:" needs a value, e.g. status:completed']],
  ['status:finished', '', [], ['"status:finished": job.status must be one of sleeping, pending, waiting, preparing, running, reverting, errored, cancelled, completed']],
  ['id:1- ran_by:ada', '', [job('ran_by', 'in', ['ada'])], ['"id:1-": Invalid input']],
];

describe('the jobs filter language (one parser: Jobs pane and jobs.export filter=)', () => {
  it.each(TABLE)('%j', (text, free, conditions, problems) => {
    const parsed = parseJobFilter(text);
    expect(parsed.text).toBe(free);
    expect(parsed.conditions).toEqual(conditions);
    expect(parsed.problems.map((p) => p.replace(/ \(.*$/, ''))).toEqual(problems);
    // Whatever is understood, the director's parser accepts.
    expect(() => parseFilterRules('jobs', filterRules(parsed))).not.toThrow();
  });

  it('the Jobs pane sends the words as a rule and the rest as its text search', () => {
    const f = defaultFilter();
    f.filter_value = 'nightly status:completed id:300-321';
    const req = toListRequest(f, '', null);
    expect(req.filterVal).toBe('nightly');
    expect(JSON.parse(req.rules)).toEqual([{ operator: 'and', conditions: [job('status', 'in', 'completed'), job('id', 'in', '300-321')] }]);
    f.filter_value = 'nightly';
    expect(toListRequest(f, '', null).rules).toBe('');
  });

  it('the hint names every word there is', () => {
    expect(QUALIFIER_FIELDS).toEqual(['id', 'name', 'status', 'ran_by', 'assessment_name', 'published']);
    expect(FILTER_WORDS_HINT).toBe('Filter words: id:300-321 name:text status:completed ran_by:ada assessment_name:text published:yes');
  });
});
