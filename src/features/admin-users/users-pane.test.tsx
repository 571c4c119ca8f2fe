import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { UserRow } from '@/api/contracts/session';
import { adminUsersCommands } from './commands';
import { UsersDialogs } from './users-dialogs';
import { UsersPane } from './users-pane';

const server = useMswServer();

const USERS: UserRow[] = [{ id: 4, email: 'ops@example.com', first_name: 'Ada', last_name: 'Ops', role: 'operator', created_at: '2026-11-01T10:00:00Z' }];

useCommandsAs(adminUsersCommands);

function renderPane() {
  server.use(http.get(`${API}/admin/users.json`, () => HttpResponse.json({ data: USERS })));
  renderWithQueries(
    <>
      <UsersPane />
      <UsersDialogs />
    </>,
  );
}

describe('the Users pane', () => {
  it('heads the users with ID, Email, Name, Role and an Actions column named for screen readers', async () => {
    renderPane();
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['ID', 'Email', 'Name', 'Role', '']);
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    const row = within(table).getByRole('row', { name: /ops@example\.com/ });
    expect(within(row).getByRole('cell', { name: 'Ada Ops' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Reset password of ops@example.com' })).toBeTruthy();
  });

  it('opens the reset dialog through users.resetPassword and refuses a short password before calling the director', async () => {
    let patched = 0;
    server.use(http.patch(`${API}/admin/users/4.json`, () => ((patched += 1), HttpResponse.json({ data: USERS[0] }))));
    renderPane();
    await userEvent.click(await screen.findByRole('button', { name: 'Reset password of ops@example.com' }));
    const form = await screen.findByRole('form', { name: 'Reset password of ops@example.com' });
    await userEvent.type(within(form).getByLabelText('New password'), 'too short');
    await userEvent.click(within(form).getByRole('button', { name: 'Reset Password' }));
    expect(await within(form).findByText('Password must be at least 12 characters')).toBeTruthy();
    expect(patched).toBe(0);
    await userEvent.type(within(form).getByLabelText('New password'), ' but longer now');
    await userEvent.click(within(form).getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(patched).toBe(1));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Reset password of ops@example.com' })).toBeNull());
  });
});
