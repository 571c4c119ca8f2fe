import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import type { UserRow } from '@/api/contracts/session';
import { commands, emptyContext } from '@/commands/registry';
import { adminUsersCommands } from './commands';
import { UsersPane } from './users-pane';

const server = useMswServer();

// The pane's buttons render from the workbench registry, as in the workbench.
let unregister = () => {};
let role: Role = 'admin';
beforeAll(() => {
  unregister = commands.registerAll(adminUsersCommands);
  commands.setContextProvider(() => {
    const user = { id: 1, email: 'admin@example.com', first_name: '', last_name: '', role, permissions: permissionsOf(role) };
    return { ...emptyContext(), user, permissions: new Set(user.permissions) };
  });
});
afterAll(() => {
  unregister();
  commands.setContextProvider(() => emptyContext());
});

function renderPane() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <UsersPane />
    </QueryClientProvider>,
  );
}

const USERS: UserRow[] = [{ id: 4, email: 'ops@example.com', first_name: 'Ada', last_name: 'Ops', role: 'operator', created_at: '2026-11-01T10:00:00Z' }];

describe('the Users pane', () => {
  it('heads the users with ID, Email, Name, Role and an Actions column named for screen readers', async () => {
    server.use(http.get(`${API}/admin/users.json`, () => HttpResponse.json({ data: USERS })));
    renderPane();
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['ID', 'Email', 'Name', 'Role', '']);
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    const row = within(table).getByRole('row', { name: /ops@example\.com/ });
    expect(within(row).getByRole('cell', { name: 'Ada Ops' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Reset password of ops@example.com' })).toBeTruthy();
  });

  it('Add User and Reset password are the registered commands: the buttons run users.openAdd and users.openResetPassword, which open the dialogs', async () => {
    server.use(http.get(`${API}/admin/users.json`, () => HttpResponse.json({ data: USERS })));
    const execute = vi.spyOn(commands, 'execute');
    renderPane();
    const table = await screen.findByRole('table');

    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(execute).toHaveBeenCalledWith('users.openAdd', undefined, 'button', expect.anything());
    expect(await screen.findByRole('form', { name: 'Add user' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    await userEvent.click(within(table).getByRole('button', { name: 'Reset password of ops@example.com' }));
    expect(execute).toHaveBeenCalledWith('users.openResetPassword', { id: 4 }, 'button', expect.anything());
    expect(await screen.findByRole('dialog', { name: 'Reset password of ops@example.com' })).toBeTruthy();
    expect(screen.getByLabelText('New password')).toBeTruthy();
    execute.mockRestore();
  });

  it('a user without users.manage sees neither button (the commands are not available to them)', async () => {
    server.use(http.get(`${API}/admin/users.json`, () => HttpResponse.json({ data: USERS })));
    role = 'operator';
    try {
      renderPane();
      await screen.findByRole('table');
      expect(screen.queryByRole('button', { name: 'Add User' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Reset password of ops@example.com' })).toBeNull();
    } finally {
      role = 'admin';
    }
  });
});
