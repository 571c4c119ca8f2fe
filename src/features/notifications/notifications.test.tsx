import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { clearToasts, toastStore } from '@/ui/toasts';
import { setSigningOut } from '@/api/http';
import { BackgroundProcessPoller, fetchBackgroundProcesses, logFailedCheck, showBackgroundProcesses } from './background-processes';
import { ContentServiceBanner, DISMISS_COOKIE, bannerText } from './content-service-banner';

const server = useMswServer();
const DISCONNECTED_5 =
  "Your system has been unable to connect to the provider's content services for the previous 5 days. Until a connection is restored, the director is unable to execute any actions.";
const RECONNECTING = "Your system was unable to connect to the provider's content services. A retry will be attempted in one hour.";

function renderBanner() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ContentServiceBanner />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  clearToasts();
  document.cookie = `${DISMISS_COOKIE}=; max-age=0; path=/`;
});

describe('content-service banner', () => {
  it('MON-160 MON-161 words the DISCONNECTED and RECONNECTING states exactly', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(bannerText({ content_service_state: 'DISCONNECTED', content_service_last_success: '2026-11-17T12:00:00Z' }, now)).toBe(DISCONNECTED_5);
    expect(bannerText({ content_service_state: 'RECONNECTING', content_service_last_success: null }, now)).toBe(RECONNECTING);
    expect(bannerText({ content_service_state: 'CONNECTED', content_service_last_success: null }, now)).toBeNull();
  });

  it('MON-030 MON-088 MON-090 MON-006 shows while RECONNECTING with a learn-more link, and dismissing sets a 24 h cookie', async () => {
    server.use(http.get(`${API}/settings/content_service.json`, () => HttpResponse.json({ content_service_state: 'RECONNECTING', content_service_last_success: null })));
    renderBanner();
    expect(await screen.findByText(RECONNECTING, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Learn more' }).getAttribute('href')).toBe('/operational_status?tabIndex=3');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss content service warning' }));
    expect(screen.queryByText(RECONNECTING, { exact: false })).toBeNull();
    expect(document.cookie).toContain(`${DISMISS_COOKIE}=1`);
  });

  it('MON-171 dismissing the banner keeps it hidden for 24 hours (cookie max-age 86400 s)', async () => {
    server.use(http.get(`${API}/settings/content_service.json`, () => HttpResponse.json({ content_service_state: 'RECONNECTING', content_service_last_success: null })));
    const written: string[] = [];
    const desc = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    const spy = vi.spyOn(document, 'cookie', 'set').mockImplementation((v: string) => {
      written.push(v);
      desc.set!.call(document, v);
    });
    try {
      renderBanner();
      await userEvent.click(await screen.findByRole('button', { name: 'Dismiss content service warning' }));
      expect(written.find((c) => c.startsWith(`${DISMISS_COOKIE}=1`))).toContain('max-age=86400');
    } finally {
      spy.mockRestore();
    }
  });

  it('MON-090 stays hidden while the dismissal cookie is set', async () => {
    document.cookie = `${DISMISS_COOKIE}=1; path=/`;
    const seen = vi.fn();
    server.use(
      http.get(`${API}/settings/content_service.json`, () => {
        seen();
        return HttpResponse.json({ content_service_state: 'DISCONNECTED', content_service_last_success: null });
      }),
    );
    renderBanner();
    await waitFor(() => expect(seen).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('MON-089 is hidden when CONNECTED and clears the dismissal cookie then', async () => {
    document.cookie = `${DISMISS_COOKIE}=1; path=/`;
    server.use(http.get(`${API}/settings/content_service.json`, () => HttpResponse.json({ content_service_state: 'CONNECTED', content_service_last_success: new Date().toISOString() })));
    renderBanner();
    await waitFor(() => expect(document.cookie).not.toContain(`${DISMISS_COOKIE}=1`));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('background processes', () => {
  it('JOB-030 JOB-111 shows failed processes as alert toasts and completed ones as notice toasts, with relative time', () => {
    const now = new Date();
    showBackgroundProcesses({
      failed: [{ id: 1, result: 'Export of job 12 failed', updated_at: new Date(now.getTime() - 3 * 60_000).toISOString() }],
      completed: [{ id: 2, result: 'PCAP processed', updated_at: now.toISOString() }],
    });
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([
      ['error', 'Export of job 12 failed'],
      ['success', 'PCAP processed'],
    ]);
    expect(toastStore.toasts[0]?.detail).toBe('3 minutes ago');
    expect(toastStore.toasts.every((t) => t.durationMs === 5000)).toBe(true);
  });

  it('JOB-114 checks the background processes at once, then every 60 s', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/check_completed_background_processes`, () => {
        calls++;
        return HttpResponse.json({ failed: [], completed: [] });
      }),
    );
    // Only the interval is faked (waitFor polls with setInterval, so it is not used here).
    const settle = () => new Promise((r) => setTimeout(r, 50));
    const callsReach = async (n: number) => {
      for (let i = 0; i < 200 && calls < n; i++) await settle();
      expect(calls).toBe(n);
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const view = render(<BackgroundProcessPoller />);
      await callsReach(1);
      vi.advanceTimersByTime(59_999);
      await settle();
      expect(calls).toBe(1);
      vi.advanceTimersByTime(1);
      await callsReach(2);
      vi.advanceTimersByTime(60_000);
      await callsReach(3);
      view.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('JOB-057 JOB-111 polls the director and logs a failed check to the console only', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(`${API}/check_completed_background_processes`, () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    render(<BackgroundProcessPoller intervalMs={60_000} />);
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(toastStore.toasts).toHaveLength(0);
    error.mockRestore();
  });

  it('JOB-111 a check cancelled by signing out logs nothing; a failed one is logged', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setSigningOut(true);
    const refused = await fetchBackgroundProcesses().catch((e: unknown) => e);
    setSigningOut(false);
    logFailedCheck(refused);
    expect(error).not.toHaveBeenCalled();
    logFailedCheck(new Error('down'));
    expect(error).toHaveBeenCalledWith('Background-process check failed', new Error('down'));
    error.mockRestore();
  });
});
