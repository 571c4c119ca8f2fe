import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { BulkTokenRow } from '@/api/contracts/actors';
import { BulkTokensTable } from './bulk-table';
import { actorsCommands } from './commands';
import { actorsStore } from './store';

const server = useMswServer();

const token = (id: number, name: string, over: Partial<BulkTokenRow> = {}): BulkTokenRow => ({
  id,
  name,
  status: 'Active',
  status_details: null,
  active_pending: 0,
  registered: 0,
  created_at: '2026-11-24T10:00:00Z',
  expires_at: '2026-11-25T10:00:00Z',
  created_by: 'admin@example.com',
  links: { pending: '', csv: '', delete: '', register_push: '', installer: '' },
  actions: ['pending', 'download', 'installer', 'register_push', 'clear'],
  ...over,
});

const renderTable = (rows: BulkTokenRow[]) => renderWithQueries(<BulkTokensTable rows={rows} />);

// The table's buttons and menus render from the workbench registry, as in the pane.
useCommandsAs(actorsCommands);

beforeEach(() => {
  Object.assign(actorsStore, { selectedId: null, expandedId: null, installerFor: null, registerPushFor: null, createOpen: false, created: null });
});

describe('bulk tokens table', () => {
  it('MON-016 says so when there are no tokens', () => {
    renderTable([]);
    expect(screen.getByText('No bulk tokens yet. Create one to register actors.')).toBeTruthy();
  });

  it('MON-118 MON-153 an Expired row is flagged and its Installer is disabled; an Errored row is flagged with its details icon', () => {
    renderTable([
      token(1, 'Old', { status: 'Expired', status_details: 'The token expired.', actions: ['pending', 'download', 'clear'] }),
      token(2, 'Broken', { status: 'Errored', status_details: '1 actor registered with this token and never called in after registering.', active_pending: 1 }),
      token(3, 'Fine'),
    ]);
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    expect((within(row('Old')).getByRole('button', { name: 'Installer for Old' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(row('Old')).getByText('Expired').dataset.flagged).toBe('true');
    expect((within(row('Broken')).getByRole('button', { name: 'Installer for Broken' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(row('Broken')).getByText('Errored').dataset.flagged).toBe('true');
    expect(within(row('Broken')).getByRole('button', { name: 'Error connecting, click for details' })).toBeTruthy();
    expect(within(row('Fine')).getByText('Active').dataset.flagged).toBeUndefined();
  });

  it('MON-071 MON-043 only rows with pending actors expand, and one at a time; the expanded row lists its pending actors', async () => {
    server.use(
      http.get(`${API}/bulk_pending_nodes/:id`, ({ params }) =>
        HttpResponse.json([{ id: Number(params.id) * 10, name: `actor-of-${String(params.id)}`, status: 'pending', status_details: null, registered_at: '2026-11-24T10:00:00Z' }]),
      ),
    );
    renderTable([token(1, 'A', { active_pending: 1 }), token(2, 'B', { active_pending: 2 }), token(3, 'C')]);
    const user = userEvent.setup();
    expect((screen.getByRole('button', { name: 'Show pending actors of C' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Show pending actors of A' }));
    expect(await screen.findByRole('table', { name: 'Pending actors of A' })).toBeTruthy();
    expect(await screen.findByText('actor-of-1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show pending actors of B' }));
    expect(await screen.findByText('actor-of-2')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Pending actors of A' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Hide pending actors of B' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Clear pending actor actor-of-2' })).toBeTruthy();
  });
});
