import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { ActorTables } from '@/api/contracts/actors';
import { ActorsPane } from './actors-pane';
import { actorsCommands } from './commands';
import { actorsStore, bulkRefetchInterval } from './store';

const server = useMswServer();
useCommandsAs(actorsCommands, 'viewer');

let calls = 0;
beforeEach(() => {
  calls = 0;
  server.use(http.get(`${API}/actors/tables.json`, () => (calls++, HttpResponse.json<ActorTables>({ bulk: { data: [] }, nodes: { data: [] } }))));
});

afterEach(() => {
  vi.useRealTimers();
  actorsStore.installerFor = null;
});

describe('the Actors pane', () => {
  it('MON-068 refreshes every 5000 ms, pauses while a modal is open and refreshes again once it closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    renderWithQueries(<ActorsPane />);
    await screen.findByRole('heading', { name: 'Bulk Tokens' });
    const after = async (ms: number) => {
      const before = calls;
      await act(() => vi.advanceTimersByTimeAsync(ms));
      return calls - before;
    };
    expect(await after(5100)).toBe(1);
    // The installer modal (its options answered empty): the pane itself draws nothing of it.
    server.use(http.get(`${API}/actor_installer/:id/options.json`, () => HttpResponse.json({ data: [] })));
    act(() => void (actorsStore.installerFor = 3));
    expect(await after(15_000)).toBe(0);
    act(() => void (actorsStore.installerFor = null));
    expect(await after(5100)).toBe(1);
  });

  it('MON-185 at the re-poll time limit it says the refreshing stopped; Resume refreshes at once and starts again', async () => {
    renderWithQueries(<ActorsPane />);
    await screen.findByRole('heading', { name: 'Bulk Tokens' });
    expect(actorsStore.pollingStopped).toBe(false);
    expect(screen.queryByText(/Auto-refresh stopped/)).toBeNull();
    // An hour of refreshing: the next check stops it.
    actorsStore.pollingSince -= 60 * 60_000;
    expect(bulkRefetchInterval()).toBe(false);
    const note = await screen.findByText('Auto-refresh stopped after 60 minutes.', { exact: false });
    expect(note.getAttribute('role')).toBe('status');
    const before = calls;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resume auto-refresh' }));
    await waitFor(() => expect(screen.queryByText(/Auto-refresh stopped/)).toBeNull());
    await waitFor(() => expect(calls).toBeGreaterThan(before));
    expect(actorsStore.pollingStopped).toBe(false);
  });
});
