import { describe, expect, it } from 'vitest';
import { parseFilterRules } from '@/api/contracts/filters';
import { QUALIFIER_FIELDS, splitQualifiers } from './filter-qualifiers';

describe('jobs filter qualifiers', () => {
  it('turns field:value words over the Job fields into conditions the director parses, and keeps the rest as free text', () => {
    const { text, conditions } = splitQualifiers('  nightly status:completed ran_by:ada,bob  published:yes id:1-100 name:seg  assessment_name:q3 ');
    expect(text).toBe('nightly');
    expect(conditions).toEqual([
      { match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' },
      { match_object: 'job', match_field: 'ran_by', operator: 'in', value: ['ada', 'bob'] },
      { match_object: 'job', match_field: 'published', operator: 'equals', value: 'yes' },
      { match_object: 'job', match_field: 'id', operator: 'in', value: '1-100' },
      { match_object: 'job', match_field: 'name', operator: 'contains', value: 'seg' },
      { match_object: 'job', match_field: 'assessment_name', operator: 'contains', value: 'q3' },
    ]);
    expect(() => parseFilterRules('jobs', [{ operator: 'and', conditions }])).not.toThrow();
    expect(QUALIFIER_FIELDS).toEqual(['id', 'name', 'status', 'ran_by', 'assessment_name', 'published']);
  });

  it('leaves words with an unknown prefix, a bare colon or no value as free text', () => {
    expect(splitQualifiers('Segmentation: east vendor:acme status:')).toEqual({ text: 'Segmentation: east vendor:acme status:', conditions: [] });
  });

  it('a value the director would refuse stays a condition, so the export answers its message', () => {
    const { conditions } = splitQualifiers('status:finished');
    expect(() => parseFilterRules('jobs', [{ operator: 'and', conditions }])).toThrow('job.status must be one of');
  });
});
