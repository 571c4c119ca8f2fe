import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { JobListAnswer } from '@/api/contracts/jobs';
import { getJobs } from './api';
import { defaultFilter, toListRequest } from './stored-filter';

const server = useMswServer();

const empty: JobListAnswer = {
  filtered_jobs: [],
  max_jobs: 0,
  total_filtered_jobs: 0,
  total_filtered_estimated: false,
  total_jobs: 0,
  page: 2,
  size: 20,
  page_start: null,
  page_end: null,
  selected_jobs: [],
};

describe('the job list call', () => {
  it('JOB-085 JOB-096 asks with size, zero-based page, filterRange, filterVal, sortCol, sortDir, selected_jobs, and filter=adhoc with structuredFilter', async () => {
    let asked: URL | null = null;
    server.use(
      http.get(`${API}/jobs/list_page_data.json`, ({ request }) => {
        asked = new URL(request.url);
        return HttpResponse.json(empty);
      }),
    );
    const range = '2026-05-01T00:00:00.000Z,2026-05-02T00:00:00.000Z';
    const filter = {
      ...defaultFilter(),
      page_number: 3,
      page_size: 20,
      sort: { by: 'job_name' as const, direction: 'asc' as const },
      filter_value: ' dns ',
      filter_range: range,
      structured_filter: { ...defaultFilter().structured_filter, events: 'suspicious' as const },
    };
    const answer = await getJobs({ ...toListRequest(filter, '', null), selected: [4, 5] });
    expect(answer).toEqual(empty);
    const q = (asked as URL | null)!.searchParams;
    expect(q.get('size')).toBe('20');
    expect(q.get('page')).toBe('2');
    expect(q.get('sortCol')).toBe('job_name');
    expect(q.get('sortDir')).toBe('asc');
    expect(q.get('filterVal')).toBe('dns');
    expect(q.get('filterRange')).toBe(range);
    expect(q.getAll('selected_jobs[]')).toEqual(['4', '5']);
    expect(q.get('filter')).toBe('adhoc');
    expect(JSON.parse(q.get('structuredFilter') ?? '{}')).toEqual({ events: 'suspicious' });
  });
});
