import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf } from '@/api/contracts/permissions';
import { CommandPalette } from '@/commands/palette';
import { closePalette, openPalette } from '@/commands/palette-store';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { CommandContext, DockControl } from '@/commands/types';
import { jobsCommands } from './commands';
import { jobsPaneState, resetPaneStates } from './pane-state';

vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 32, size: estimateSize(index), end: (index + 1) * 32, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 32, scrollToIndex: () => undefined };
  },
}));

const server = useMswServer();
const JOBS = [
  { id: 321, name: 'Ransomware Kill Chain', status: 'completed' },
  { id: 320, name: 'DNS Exfiltration', status: 'completed' },
  { id: 14, name: 'Port Scan', status: 'errored' },
];
const searched: string[] = [];

function setup(activePane: CommandContext['activePane']) {
  const openUrl = vi.fn();
  const dock: DockControl = { openUrl, focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
  const registry = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissionsOf('operator')), dock, activePane }));
  registry.registerAll(jobsCommands);
  render(<CommandPalette registry={registry} />);
  act(() => openPalette());
  return openUrl;
}

async function chooseReport() {
  await userEvent.type(await screen.findByRole('combobox', { name: 'Command palette' }), 'summary report');
  await userEvent.keyboard('{Enter}');
  return screen.findByRole('form', { name: 'Arguments for Job Summary Report' });
}

beforeEach(() => {
  closePalette();
  resetPaneStates();
  searched.length = 0;
  server.use(
    http.get(`${API}/search.json`, ({ request }) => {
      const u = new URL(request.url);
      const q = u.searchParams.get('q') ?? '';
      searched.push(`${u.searchParams.get('kind')}:${q}`);
      const hits = JOBS.filter((j) => !q || String(j.id).startsWith(q) || j.name.toLowerCase().includes(q.toLowerCase()));
      return HttpResponse.json({
        results: hits.map((j) => ({ kind: 'job', id: j.id, label: `Job ${j.id}`, detail: `${j.name} · ${j.status}`, vid: null, subtype: null, url: `/jobs/${j.id}`, match: 'substring' })),
      });
    }),
  );
});

describe('Job Summary Report from the palette asks for its jobs with a searchable multiple pick', () => {
  it('on the Start pane: typing searches jobs by id or name, Enter picks each, Enter again opens the report of the jobs picked', async () => {
    const openUrl = setup({ kind: 'start', params: {}, id: 'start-1' });
    const form = await chooseReport();
    const box = within(form).getByRole('combobox', { name: 'Jobs' });
    expect(within(form).queryByRole('spinbutton')).toBeNull();
    expect(within(form).queryByRole('textbox')).toBeNull();
    await userEvent.type(box, '320');
    await within(form).findByRole('option', { name: /^Job 320 DNS Exfiltration/ });
    await userEvent.keyboard('{Enter}');
    await userEvent.type(box, 'ransom');
    await within(form).findByRole('option', { name: /^Job 321 Ransomware Kill Chain/ });
    await userEvent.keyboard('{Enter}');
    const chosen = within(form).getByRole('list', { name: 'Chosen jobs' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent?.replace('×', '').trim())).toEqual(['Job 320', 'Job 321']);
    expect(searched).toContain('job:ransom');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(openUrl).toHaveBeenCalledWith('/reports/summary?job_ids[]=320&job_ids[]=321'));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Arguments for Job Summary Report' })).toBeNull());
  });

  it('on the Start pane with nothing picked, Run asks for the jobs instead of failing with "Select job results first"', async () => {
    const openUrl = setup({ kind: 'start', params: {}, id: 'start-1' });
    const form = await chooseReport();
    await within(form).findByRole('option', { name: /^Job 321/ });
    await userEvent.click(within(form).getByRole('button', { name: 'Run' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Choose one or more jobs.');
    expect(openUrl).not.toHaveBeenCalled();
    expect(screen.queryByText(/first/)).toBeNull();
  });

  it('in a Jobs pane, the selected jobs are chosen at first: Enter opens their report; one can be removed', async () => {
    const s = jobsPaneState('', 1);
    s.filter.selected_jobs = [12, 14, 20];
    const openUrl = setup({ kind: 'jobs', params: {}, id: 'jobs-1' });
    const form = await chooseReport();
    const chosen = within(form).getByRole('list', { name: 'Chosen jobs' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(within(chosen).getByRole('button', { name: 'Remove Job 20' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledWith('/reports/summary?job_ids[]=12&job_ids[]=14'));
  });
});
