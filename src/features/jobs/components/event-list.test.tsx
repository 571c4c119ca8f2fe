import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOADING_EVENTS, NO_EVENTS, type JobEvent } from '@/api/contracts/jobs';
import { EventList, EventsOf } from './dialogs';

const event = (over: Partial<JobEvent>): JobEvent => ({
  id: 1,
  integration: { id: 3, name: 'vigil-lab firewall (nftables/ulogd)' },
  description: 'ALERT:critical Telnet between zones',
  raw_event: '{"oob.prefix":"ALERT:critical Telnet between zones"}',
  suspicious: false,
  alert: true,
  severity: 'critical',
  occurred_at: '2026-11-26T14:00:00.000Z',
  ...over,
});

describe('the events list of the events modal', () => {
  it('JOB-105 shows each event with its source, whether it is an alert, its severity and whether it is only suspicious', () => {
    render(
      <EventList
        events={[
          event({}),
          event({ id: 2, description: 'LOG:low SSH from the user zone', alert: false, severity: 'low' }),
          event({ id: 3, description: 'Anomalous socket activity', alert: false, severity: null, suspicious: true, integration: null }),
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('ALERT:critical Telnet between zones')).toBeTruthy();
    expect(within(items[0]!).getByText('vigil-lab firewall (nftables/ulogd) · Alert · Critical severity')).toBeTruthy();
    expect(within(items[1]!).getByText('vigil-lab firewall (nftables/ulogd) · Low severity')).toBeTruthy();
    expect(within(items[2]!).getByText('Unknown integration · suspicious')).toBeTruthy();
  });
});

/** EventsOf over a real query whose fetcher is `read`. */
function renderEventsOf(read: () => Promise<{ events: JobEvent[] }>) {
  function Events() {
    return <EventsOf query={useQuery({ queryKey: ['events'], queryFn: read, retry: false })} />;
  }
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <Events />
    </QueryClientProvider>,
  );
}

describe('the events body shared by the Detected Events modal and the Suspicious Events pane', () => {
  it('JOB-105 says it is loading until the events arrive, then lists them', async () => {
    let arrive: (answer: { events: JobEvent[] }) => void = () => {};
    renderEventsOf(() => new Promise((resolve) => (arrive = resolve)));
    expect(screen.getByRole('status').textContent).toBe(LOADING_EVENTS);
    arrive({ events: [event({})] });
    expect(within(await screen.findByRole('list', { name: 'Events' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText(LOADING_EVENTS)).toBeNull();
  });

  it('JOB-105 says so when there are none, and shows a failed call\'s message as an alert', async () => {
    const none = renderEventsOf(() => Promise.resolve({ events: [] }));
    expect((await screen.findByText(NO_EVENTS)).getAttribute('role')).toBe('status');
    none.unmount();
    renderEventsOf(() => Promise.reject(new Error('Job action 7 was not found.')));
    expect((await screen.findByRole('alert')).textContent).toBe('Job action 7 was not found.');
  });
});
