import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { UserRow } from '@/api/contracts/session';
import { UsersPane } from './users-pane';

const server = useMswServer();

const USERS: UserRow[] = [{ id: 4, email: 'ops@example.com', first_name: 'Ada', last_name: 'Ops', role: 'operator', created_at: '2026-11-01T10:00:00Z' }];

describe('the Users pane', () => {
  it('heads the users with ID, Email, Name, Role and an Actions column named for screen readers', async () => {
    server.use(http.get(`${API}/admin/users.json`, () => HttpResponse.json({ data: USERS })));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <UsersPane />
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['ID', 'Email', 'Name', 'Role', '']);
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    const row = within(table).getByRole('row', { name: /ops@example\.com/ });
    expect(within(row).getByRole('cell', { name: 'Ada Ops' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Reset password of ops@example.com' })).toBeTruthy();
  });
});
