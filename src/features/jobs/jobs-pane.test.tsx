import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { LOADING_JOB_RESULTS, NO_JOB_RESULTS, type JobListAnswer } from '@/api/contracts/jobs';
import type { DockController } from '@/panes/dock-controller';
import { WorkbenchContext } from '@/panes/pane-context';
import { PaneRegistry } from '@/panes/registry';
import { JobsPane } from './components/jobs-pane';
import { resetPaneStates } from './pane-state';

const server = useMswServer();

const empty: JobListAnswer = {
  filtered_jobs: [],
  max_jobs: 320,
  total_filtered_jobs: 0,
  total_filtered_estimated: false,
  total_jobs: 320,
  page: 0,
  size: 10,
  page_start: null,
  page_end: null,
  selected_jobs: [],
};

function renderPane() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const controller = { openUrl: () => undefined } as unknown as DockController;
  return render(
    <QueryClientProvider client={qc}>
      <WorkbenchContext.Provider value={{ panes: new PaneRegistry([]), controller }}>
        <JobsPane params={{}} setParams={() => undefined} />
      </WorkbenchContext.Provider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  resetPaneStates();
  localStorage.clear();
});

describe('the Jobs pane', () => {
  it('JOB-012 JOB-115 says "Loading Job Results" while the list loads, then "No Job results to display." when nothing matches', async () => {
    const asked: URL[] = [];
    server.use(
      http.get(`${API}/jobs/list_page_data.json`, async ({ request }) => {
        asked.push(new URL(request.url));
        await delay(50);
        return HttpResponse.json(empty);
      }),
    );
    renderPane();
    expect(screen.getByText(LOADING_JOB_RESULTS)).toBeTruthy();
    await screen.findByText(NO_JOB_RESULTS);
    expect(asked[0]?.searchParams.get('page')).toBe('0');
    expect(asked[0]?.searchParams.get('size')).toBe('10');
    expect(asked[0]?.searchParams.get('sortCol')).toBe('job_id');
    expect(asked[0]?.searchParams.get('sortDir')).toBe('desc');
    expect((screen.getByRole('checkbox', { name: 'Select all listed jobs' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('shows the director\'s message when the list fails, and the events filter goes out as a structured filter', async () => {
    const asked: URL[] = [];
    server.use(
      http.get(`${API}/jobs/list_page_data.json`, ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        if (!url.searchParams.get('structuredFilter')) return HttpResponse.json({ error: 'The database is busy.' }, { status: 503 });
        return HttpResponse.json(empty);
      }),
    );
    renderPane();
    await screen.findByText(/The database is busy\./);
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter job actions by events' }), { target: { value: 'suspicious' } });
    await screen.findByText(NO_JOB_RESULTS);
    const last = asked[asked.length - 1]!;
    expect(last.searchParams.get('filter')).toBe('adhoc');
    expect(JSON.parse(last.searchParams.get('structuredFilter') ?? '{}')).toEqual({ events: 'suspicious' });
    await waitFor(() => expect(localStorage.getItem('vigil.jobs.filter.v1:anonymous:-')).toContain('"suspicious"'));
  });
});

describe('the Jobs pane text filter speaks the jobs filter language', () => {
  it('sends field:value words as a rule, the rest as text, and says which words it did not understand', async () => {
    const asked: URL[] = [];
    server.use(
      http.get(`${API}/jobs/list_page_data.json`, ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json(empty);
      }),
    );
    renderPane();
    await screen.findByText(NO_JOB_RESULTS);
    const box = screen.getByRole('searchbox', { name: 'Filter jobs' });
    fireEvent.change(box, { target: { value: 'nightly status:completed ran_by:ada id:300-321 vendor:acme' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(asked.some((u) => u.searchParams.get('structuredFilter'))).toBe(true));
    const last = asked.at(-1)!;
    expect(last.searchParams.get('filterVal')).toBe('nightly vendor:acme');
    expect(last.searchParams.get('filter')).toBe('adhoc');
    expect(JSON.parse(last.searchParams.get('structuredFilter')!)).toEqual({
      rules: [
        {
          operator: 'and',
          conditions: [
            { match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' },
            { match_object: 'job', match_field: 'ran_by', operator: 'in', value: ['ada'] },
            { match_object: 'job', match_field: 'id', operator: 'in', value: '300-321' },
          ],
        },
      ],
    });
    const hint = await screen.findByText(/Not understood: "vendor:acme": vendor is not a filter word/);
    expect(hint.textContent).toContain('Filter words: id:300-321 name:text status:completed ran_by:ada assessment_name:text published:yes');
    expect(box.getAttribute('aria-describedby')).toBe(hint.id);
  });
});
