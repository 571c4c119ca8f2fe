import { describe, expect, it } from 'vitest';
import { cutLabel } from '@/api/contracts/library';
import { csvField } from './csv';
import { anyRunning, datePart, logLines, ranBy, webValue } from './format';

describe('library formatting', () => {
  it('ACT-001 shows dates with the date part only', () => {
    expect(datePart('2026-03-04T22:10:00.000Z').length).toBe(10);
    expect(datePart('2026-03-04T12:10:00.000Z')).toBe('2026-03-04');
    expect(datePart(null)).toBe('--');
  });

  it("ACT-002 names a job without a user 'Scheduled Process'", () => {
    expect(ranBy(null)).toBe('Scheduled Process');
    expect(ranBy({ first_name: 'Ada', last_name: 'Admin' })).toBe('Ada Admin');
  });

  it('ACT-063 keeps refetching while a latest job is not finished', () => {
    const at = '2026-11-27T00:00:00.000Z';
    expect(anyRunning([{ id: 1, status: 'completed', updated_at: at }, { id: 2, status: 'errored', updated_at: at }, null])).toBe(false);
    expect(anyRunning([{ id: 1, status: 'completed', updated_at: at }, { id: 2, status: 'running', updated_at: at }])).toBe(true);
  });

  it("ACT-049 shows the third part of a ':v:' value and '--' for missing values", () => {
    expect(webValue('form:v:urlencoded:v:username=admin')).toBe('username=admin');
    expect(webValue('plain')).toBe('plain');
    expect(webValue('')).toBe('--');
    expect(webValue(undefined)).toBe('--');
    expect(webValue(null)).toBe('--');
    expect(webValue(false)).toBe('No');
  });

  it("ACT-112 reads cloud logs from a list or a string, and nothing else", () => {
    expect(logLines(['a', 'b'])).toEqual(['a', 'b']);
    expect(logLines('a\nb')).toEqual(['a', 'b']);
    expect(logLines({ a: 1 })).toBeNull();
    expect(logLines(null)).toBeNull();
  });

  it('JOB-021 cuts tree labels longer than 40 characters with an ellipsis', () => {
    const long = 'Host CLI - Mimikatz Credential Dump (sekurlsa::logonpasswords)';
    expect(cutLabel(long)).toBe(`${long.slice(0, 40)}…`);
    expect(cutLabel('x'.repeat(40))).toBe('x'.repeat(40));
  });

  it('quotes CSV fields when needed', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(3)).toBe('3');
  });
});
