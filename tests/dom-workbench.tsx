/**
 * What component tests of a pane set up around it, written once: the feature's commands registered
 * for a signed-in user of a role (buttons and menus render from the registry, as in the workbench),
 * and a render inside a fresh QueryClient that does not retry.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll } from 'vitest';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { commands, emptyContext } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';

/** The QueryClient of the latest renderWithQueries: commands get it in their context, as in the workbench. */
let currentClient: QueryClient | undefined;

/** Registers `list` for the test file, run by a user of `role` (default admin); unregisters after. */
export function useCommandsAs(list: AnyCommand[], role: Role = 'admin') {
  let unregister = () => {};
  beforeAll(() => {
    unregister = commands.registerAll(list);
    const user = { id: 1, email: `${role}@example.com`, first_name: '', last_name: '', role, permissions: permissionsOf(role) };
    commands.setContextProvider(() => ({ ...emptyContext(), user, permissions: new Set(user.permissions), ...(currentClient ? { queryClient: currentClient } : {}) }));
  });
  afterAll(() => {
    unregister();
    commands.setContextProvider(() => emptyContext());
  });
}

/** Renders `ui` with a QueryClient of its own (no retries), as a pane has in the workbench. */
export function renderWithQueries(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  currentClient = client;
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}
