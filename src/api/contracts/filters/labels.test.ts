import { describe, expect, it } from 'vitest';
import { FILTER_CONFIGS, OPERATOR_LABELS, findField } from './config';
import { rulesSummary } from './page-filters';

describe('rule builder labels', () => {
  it('JOB-066 operators read as words, never as raw identifiers such as not_in', () => {
    expect(Object.values(OPERATOR_LABELS)).toEqual(['is any of', 'is none of', 'equals', 'contains', 'does not contain', 'starts with', 'ends with']);
    for (const label of Object.values(OPERATOR_LABELS)) expect(label).not.toMatch(/_/);
  });

  it('JOB-066 status values are offered with their labels (Completed, Not Run) and keep their values', () => {
    const status = findField('jobs', 'job', 'status');
    expect(status?.options?.find((o) => o.value === 'completed')?.label).toBe('Completed');
    const actionStatus = findField('jobs', 'job_action', 'status');
    expect(actionStatus?.options?.find((o) => o.value === 'not run')?.label).toBe('Not Run');
    for (const t of Object.values(FILTER_CONFIGS)) for (const o of t) for (const f of o.match_fields) for (const opt of f.options ?? []) expect(opt.label).not.toMatch(/^[a-z]/);
  });

  it('the summary uses the same labels', () => {
    const rule = {
      operator: 'or' as const,
      conditions: [
        { operator: 'and' as const, conditions: [{ match_object: 'job', match_field: 'status', operator: 'not_in', value: ['completed', 'errored'] }] },
        { operator: 'and' as const, conditions: [{ match_object: 'job', match_field: 'name', operator: 'not_contains', value: 'nightly' }] },
      ],
    };
    expect(rulesSummary('jobs', rule as never)).toBe('Job Status is none of Completed, Errored or Job Name does not contain nightly');
  });
});
