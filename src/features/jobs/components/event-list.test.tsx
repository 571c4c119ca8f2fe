import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '@/api/contracts/jobs';
import { EventList } from './dialogs';

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
