import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNewContent, type LibraryItem } from '@/api/contracts/library';
import { LibraryList } from './library-list';

// jsdom has no layout: the virtual list draws every row.
vi.mock('@/ui/virtual-list', async (actual) => ({
  ...(await actual<typeof import('@/ui/virtual-list')>()),
  useVirtualRows: ({ count, rowHeight }: { count: number; rowHeight: number }) => ({
    items: Array.from({ length: count }, (_, i) => ({ index: i, key: i, start: i * rowHeight })),
    totalSize: count * rowHeight,
  }),
}));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const item = (id: number, over: Partial<LibraryItem>): LibraryItem => ({
  id,
  vid: `A100-00${id}`,
  name: `Action ${id}`,
  desc: '',
  action_type: 'dns',
  approved: true,
  tags: [],
  disabled: false,
  decommissioned: false,
  updated_at: ago(100),
  date_modified: ago(100),
  last_added: ago(100),
  last_run: null,
  total_runs: 0,
  latest_job: null,
  require_protected: false,
  monitor_connections: false,
  pending_files: 0,
  malicious_files: 0,
  vendor: false,
  ...over,
});

describe('content list pills', () => {
  it('MON-177 NEW marks items updated within 14 days; a running latest job shows as a 110 px status pill', async () => {
    const now = Date.parse('2026-11-27T00:00:00Z');
    expect(isNewContent('2026-11-13T00:00:00Z', now)).toBe(true);
    expect(isNewContent('2026-11-12T23:59:59Z', now)).toBe(false);

    const items = [item(1, { updated_at: ago(2), latest_job: { id: 7, status: 'running', updated_at: ago(0) } }), item(2, { updated_at: ago(20), latest_job: { id: 8, status: 'completed', updated_at: ago(20) } })];
    render(<LibraryList total={2} itemAt={(i) => items[i]} focusIndex={-1} selectedIds={new Set()} onRange={() => undefined} onClick={() => undefined} onKey={() => undefined} onOpen={() => undefined} scrollToIndex={null} />);
    const fresh = await screen.findByRole('option', { name: 'A100-001 Action 1' });
    const old = screen.getByRole('option', { name: 'A100-002 Action 2' });
    expect(within(fresh).getByText('NEW')).toBeTruthy();
    expect(within(old).queryByText('NEW')).toBeNull();
    expect(within(fresh).getByText('running').style.width).toBe('110px');
    expect(within(old).queryByText('completed')).toBeNull();
  });
});
