import { render, screen, waitFor, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { RESUME_EVENT, SUSPEND_EVENT, SessionTimeout } from './session-timeout';

const server = useMswServer();

describe('session timeout', () => {
  it('MON-024 MON-084 MON-085 warns at 120 s or less with no close button, and Extend Session hides the warning', async () => {
    let timeLeft = 90;
    const resets = vi.fn();
    server.use(
      http.get(`${API}/users/verify_user_session`, () => HttpResponse.json({ time_left: timeLeft })),
      http.get(`${API}/users/reset_user_session_timeout`, () => {
        resets();
        timeLeft = 1800;
        return HttpResponse.json({ time_left: timeLeft });
      }),
    );
    render(<SessionTimeout pollMs={60_000} reload={vi.fn()} />);
    expect(await screen.findByText('Your session is about to expire.')).toBeTruthy();
    const dialog = screen.getByRole('dialog');
    expect(dialog.querySelector('button[aria-label="Close"]')).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Extend Session']);
    await userEvent.click(screen.getByRole('button', { name: 'Extend Session' }));
    await waitFor(() => expect(screen.queryByText('Your session is about to expire.')).toBeNull());
    expect(resets).toHaveBeenCalledTimes(1);
  });

  it('MON-084 shows nothing while more than 120 s are left', async () => {
    const seen = vi.fn();
    server.use(
      http.get(`${API}/users/verify_user_session`, () => {
        seen();
        return HttpResponse.json({ time_left: 121 });
      }),
    );
    render(<SessionTimeout reload={vi.fn()} />);
    await waitFor(() => expect(seen).toHaveBeenCalled());
    expect(screen.queryByText('Your session is about to expire.')).toBeNull();
  });

  it('MON-087 MON-163 reloads the page on a 401', async () => {
    server.use(http.get(`${API}/users/verify_user_session`, () => HttpResponse.json({ error: 'signed out' }, { status: 401 })));
    const reload = vi.fn();
    render(<SessionTimeout reload={reload} />);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('MON-087 MON-170 reloads after 5 consecutive failures, not before', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/users/verify_user_session`, () => {
        calls++;
        return HttpResponse.json({ error: 'down' }, { status: 502 });
      }),
    );
    const reload = vi.fn();
    render(<SessionTimeout pollMs={15} reload={reload} />);
    await waitFor(() => expect(calls).toBeGreaterThanOrEqual(4));
    if (calls < 5) expect(reload).not.toHaveBeenCalled();
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(calls).toBeGreaterThanOrEqual(5);
  });

  it('MON-086 polling is suspended and restored by document events', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/users/verify_user_session`, () => {
        calls++;
        return HttpResponse.json({ time_left: 1000 });
      }),
    );
    render(<SessionTimeout pollMs={10} reload={vi.fn()} />);
    await waitFor(() => expect(calls).toBeGreaterThan(0));
    act(() => void document.dispatchEvent(new Event(SUSPEND_EVENT)));
    await new Promise((r) => setTimeout(r, 30));
    const suspendedAt = calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(suspendedAt);
    act(() => void document.dispatchEvent(new Event(RESUME_EVENT)));
    await waitFor(() => expect(calls).toBeGreaterThan(suspendedAt));
  });
});
