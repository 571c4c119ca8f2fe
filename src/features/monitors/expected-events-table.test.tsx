import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, delay } from 'msw';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { ExpectedEvent, ExpectedEventsAnswer } from '@/api/contracts/monitors';
import { ExpectedEventsTable } from './expected-events-table';

const server = useMswServer();

const ANSWER: ExpectedEventsAnswer = {
  groups: [
    {
      key: '4',
      integration: { id: 4, host: 'ids.lab', name: 'Suricata IDS', logo_path_for_web: '/logos/suricata.svg' },
      events: [
        { description: 'ET SCAN Nmap', is_selected: false, raw_event: '{"signature":"ET SCAN Nmap"}', security_technology_id: 'suricata', integration_id: 4, message: '' },
        { description: 'ET POLICY probe', is_selected: false, raw_event: '{}', security_technology_id: 'suricata', integration_id: 4, message: '' },
      ],
    },
    { key: 'endpoint', integration: null, events: [{ description: 'Process started: nmap', is_selected: false, raw_event: '{"pid":4}', security_technology_id: null, integration_id: null, message: '' }] },
  ],
  security_technologies: [{ id: 'suricata', logo_path_for_web: '/logos/suricata.svg' }],
};

function Harness({ initial, onChange }: { initial: ExpectedEvent[]; onChange(e: ExpectedEvent[]): void }) {
  const [events, setEvents] = useState(initial);
  return (
    <ExpectedEventsTable
      actionId={12}
      selected={events}
      onChange={(e) => {
        setEvents(e);
        onChange(e);
      }}
    />
  );
}

function setup(initial: ExpectedEvent[]) {
  const calls = vi.fn();
  server.use(
    http.get(`${API}/monitors/expected_events.json`, async ({ request }) => {
      calls(new URL(request.url).searchParams.get('action_id'));
      await delay(50);
      return HttpResponse.json(ANSWER);
    }),
  );
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Harness initial={initial} onChange={onChange} />
    </QueryClientProvider>,
  );
  return { calls, onChange, table: screen.getByRole('region', { name: 'Expected events' }) };
}

describe('the expected events table', () => {
  it('MON-014 MON-080 MON-020 LOADING reads Requesting event data; events are grouped by integration or endpoint; selecting a row makes its message editable; the raw event expands', async () => {
    const { calls, onChange, table } = setup([]);
    expect(within(table).getByRole('status').textContent).toBe('Requesting event data');
    expect(table.getAttribute('data-state')).toBe('LOADING');
    const suricata = await within(table).findByRole('table', { name: 'Events of Suricata IDS' });
    expect(calls).toHaveBeenCalledWith('12');
    expect(within(suricata).getByText('Suricata IDS (ids.lab)')).toBeTruthy();
    expect(within(table).getByRole('table', { name: 'Events of endpoint' })).toBeTruthy();
    expect(within(suricata).getAllByRole('img', { name: 'suricata' })).toHaveLength(2);
    const message = within(suricata).getByRole('textbox', { name: 'Message for ET SCAN Nmap' });
    expect((message as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(within(suricata).getByRole('checkbox', { name: 'Select ET SCAN Nmap' }));
    expect(onChange).toHaveBeenLastCalledWith([{ integration_id: 4, description: 'ET SCAN Nmap', message: '' }]);
    expect((message as HTMLInputElement).disabled).toBe(false);
    await userEvent.type(message, 'alert');
    expect(onChange).toHaveBeenLastCalledWith([{ integration_id: 4, description: 'ET SCAN Nmap', message: 'alert' }]);
    const raw = within(suricata).getAllByRole('button', { name: 'Show raw event' })[0]!;
    await userEvent.click(raw);
    expect(raw.getAttribute('aria-expanded')).toBe('true');
    const pre = within(suricata).getByText('{"signature":"ET SCAN Nmap"}');
    expect(pre.style.maxWidth).toBe('500px');
    // MON-020: the raw event opens in the JSON viewer, formatted with 4 spaces.
    await userEvent.click(within(suricata).getAllByRole('button', { name: 'Open in viewer' })[0]!);
    const viewer = await screen.findByRole('dialog', { name: 'Raw event: ET SCAN Nmap' });
    expect(within(viewer).getByLabelText('Content').textContent).toBe('{\n    "signature": "ET SCAN Nmap"\n}');
    expect(within(viewer).getByRole('button', { name: 'Copy to Clipboard' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Unselected again: the message is no longer editable.
    await userEvent.click(within(suricata).getByRole('checkbox', { name: 'Select ET SCAN Nmap' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect((message as HTMLInputElement).disabled).toBe(true);
  });

  it('MON-080 saved selections start as KEEP_EXISTING: No changes made to expected events., and Show Selections requests the data with the selections ticked', async () => {
    const { calls, table } = setup([
      { integration_id: 4, description: 'ET SCAN Nmap', message: 'must alert' },
      { integration_id: null, description: 'Never reported yet', message: '' },
    ]);
    expect(table.getAttribute('data-state')).toBe('KEEP_EXISTING');
    expect(within(table).getByText('No changes made to expected events.')).toBeTruthy();
    expect(calls).not.toHaveBeenCalled();
    await userEvent.click(within(table).getByRole('button', { name: 'Show Selections' }));
    expect(within(table).getByRole('status').textContent).toBe('Requesting event data');
    const suricata = await within(table).findByRole('table', { name: 'Events of Suricata IDS' });
    expect((within(suricata).getByRole('checkbox', { name: 'Select ET SCAN Nmap' }) as HTMLInputElement).checked).toBe(true);
    expect((within(suricata).getByRole('textbox', { name: 'Message for ET SCAN Nmap' }) as HTMLInputElement).value).toBe('must alert');
    expect((within(suricata).getByRole('checkbox', { name: 'Select ET POLICY probe' }) as HTMLInputElement).checked).toBe(false);
    const endpoint = within(table).getByRole('table', { name: 'Events of endpoint' });
    expect((within(endpoint).getByRole('checkbox', { name: 'Select Never reported yet' }) as HTMLInputElement).checked).toBe(true);
  });
});
