import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_COLUMN_PX, RESIZE_HELPER_MIN_PX, evenWidths, resizeColumn } from './column-widths';
import { DataTable, type DataColumn, type DataTab } from './data-table';
import { Modal } from './modal';
import { StatusDetailsIcon, StatusPoller, splitDetails } from './status-poller';
import { notifyModalSuccess } from './table-refresh';
import { clearToasts, toastStore } from './toasts';

interface Row {
  id: number;
  name: string;
  kind: string;
}
const ROWS: Row[] = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `Sensor ${i + 1}`, kind: i % 2 ? 'webhook' : 'suricata_eve' }));
const COLUMNS: DataColumn<Row>[] = [
  { key: 'name', label: 'Name', render: (r) => r.name, text: (r) => r.name },
  { key: 'kind', label: 'Kind', render: (r) => r.kind, text: (r) => r.kind },
  { key: 'id', label: 'Id', render: (r) => r.id },
];
const TABS: DataTab<Row>[] = [
  { id: 'all', label: 'All' },
  { id: 'webhook', label: 'Webhooks', filter: (r) => r.kind === 'webhook' },
];

const table = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) => <DataTable<Row> id="sensors" label="Sensors" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} tabs={TABS} {...props} />;
const bodyRows = () => within(screen.getByRole('table', { name: 'Sensors' })).getAllByRole('row').slice(1);
const statusLine = () => screen.getByRole('status', { name: 'Sensors status' }).textContent;

beforeEach(() => {
  localStorage.clear();
  clearToasts();
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width: 1000, height: 300, top: 0, left: 0, right: 1000, bottom: 300, x: 0, y: 0, toJSON: () => ({}) });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the generic table', () => {
  it('MON-019 tab menu: the tabs narrow the rows, arrows move between them, and the page goes back to 1', async () => {
    render(table());
    expect(statusLine()).toBe('Showing 1–10 of 25');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(statusLine()).toBe('Showing 11–20 of 25');
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['All', 'true'],
      ['Webhooks', 'false'],
    ]);
    tabs[0]!.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Webhooks' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Webhooks' }));
    expect(statusLine()).toBe('Showing 1–10 of 12 (25 in all)');
    expect(bodyRows().every((r) => r.textContent!.includes('webhook'))).toBe(true);
  });

  it("MON-019 quick find: a popover with Cancel and Apply; 'No Results' while nothing matches; Apply filters, and a filter matching nothing shows 'No results found for the selected options.'", async () => {
    render(table());
    await userEvent.click(screen.getByRole('button', { name: 'Quick Find' }));
    const pop = screen.getByRole('dialog', { name: 'Quick find' });
    const input = within(pop).getByRole('searchbox', { name: 'Find in Sensors' });
    expect(document.activeElement).toBe(input);
    await userEvent.type(input, 'zzz');
    expect(pop.textContent).toContain('No Results');
    await userEvent.click(within(pop).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(statusLine()).toBe('Showing 1–10 of 25');
    await userEvent.click(screen.getByRole('button', { name: 'Quick Find' }));
    await userEvent.type(screen.getByRole('searchbox'), 'sensor 2');
    expect(screen.getByRole('dialog').textContent).toContain('7 matching rows');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(statusLine()).toBe('Showing 1–7 of 7 (25 in all)');
    expect(screen.getByRole('button', { name: 'Quick Find: sensor 2' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Quick Find: sensor 2' }));
    await userEvent.clear(screen.getByRole('searchbox'));
    await userEvent.type(screen.getByRole('searchbox'), 'nothing here{Enter}');
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('No results found for the selected options.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('MON-019 the quick-find popover closes on an outside click without applying', async () => {
    render(table());
    await userEvent.click(screen.getByRole('button', { name: 'Quick Find' }));
    await userEvent.type(screen.getByRole('searchbox'), 'Sensor 3');
    await userEvent.click(screen.getByRole('table'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(statusLine()).toBe('Showing 1–10 of 25');
  });

  it("MON-019 a table with no columns reads 'No table column details'; the status line counts the rows", () => {
    render(<DataTable<Row> id="t" label="Tags" columns={[]} rows={ROWS} rowKey={(r) => r.id} />);
    expect(screen.getByText('No table column details')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Tags status' }).textContent).toBe('Showing 1–10 of 25');
  });

  it('MON-173 columns resize by dragging or arrow keys in fit mode: widths are percentages summing to 100, no column under 50 px, remembered under {id}-columnWidths', async () => {
    const { unmount } = render(table());
    const handles = screen.getAllByRole('separator');
    expect(handles.map((h) => h.getAttribute('aria-label'))).toEqual(['Resize Name', 'Resize Kind']);
    expect(handles[0]!.getAttribute('aria-valuenow')).toBe('33');
    handles[0]!.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    const saved = JSON.parse(localStorage.getItem('sensors-columnWidths')!) as number[];
    expect(saved).toEqual([35.33, 31.33, 33.34]);
    expect(saved.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    // jsdom has no PointerEvent: mouse events of the pointer types carry clientX.
    fireEvent(handles[1]!, new MouseEvent('pointerdown', { bubbles: true, clientX: 500 }));
    act(() => void window.dispatchEvent(new MouseEvent('pointermove', { clientX: 900 })));
    act(() => void window.dispatchEvent(new MouseEvent('pointerup')));
    const dragged = JSON.parse(localStorage.getItem('sensors-columnWidths')!) as number[];
    expect(dragged[2]).toBe(5);
    expect(dragged.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    unmount();
    render(table());
    expect(screen.getAllByRole('separator')[0]!.getAttribute('aria-valuenow')).toBe('35');
  });

  it('MON-173 the generic tables keep both columns at 50 px or more and the sum at 100', () => {
    expect(evenWidths(3)).toEqual([33.33, 33.33, 33.34]);
    expect(resizeColumn([50, 50], 0, 400, 1000, MIN_COLUMN_PX)).toEqual([90, 10]);
    expect(resizeColumn([50, 50], 0, 480, 1000, MIN_COLUMN_PX)).toEqual([95, 5]);
    expect(resizeColumn([50, 50], 0, -1000, 1000, MIN_COLUMN_PX)).toEqual([5, 95]);
    expect(resizeColumn([20, 30, 50], 2, 10, 1000)).toEqual([20, 30, 50]);
  });

  it('MON-173 columns start from their weights (percentages summing to 100) until resized', () => {
    const weighted: DataColumn<Row>[] = [{ ...COLUMNS[0]!, weight: 2 }, { ...COLUMNS[1]! }, { ...COLUMNS[2]!, weight: 1 }];
    const { container } = render(table({ columns: weighted }));
    expect([...container.querySelectorAll('col')].map((c) => c.style.width)).toEqual(['50%', '25%', '25%']);
  });

  it("MON-173 the resizable-table helper's default minimum is 15 px, in resize mode 'fit' (the neighbour gives what the column takes)", () => {
    expect(RESIZE_HELPER_MIN_PX).toBe(15);
    // 1000 px wide: a column can shrink to 15 px (1.5 %) by default, not further; its neighbour takes the rest.
    expect(resizeColumn([50, 50], 0, -1000, 1000)).toEqual([1.5, 98.5]);
    expect(resizeColumn([50, 50], 0, 1000, 1000)).toEqual([98.5, 1.5]);
    expect(resizeColumn([30, 30, 40], 1, 100, 1000)).toEqual([30, 40, 30]);
  });

  it('MON-151 MON-068 MON-070 MON-169 refreshes every 5000 ms, pauses while a modal is open and resumes when it closes; a modal success event refetches at once; a failed refresh goes to the console only', async () => {
    vi.useFakeTimers();
    const refetch = vi.fn(async (): Promise<{ error: Error | null }> => ({ error: null }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { rerender } = render(
      <>
        {table({ refetch })}
        <Modal open={false} title="Add">
          x
        </Modal>
      </>,
    );
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(refetch).toHaveBeenCalledTimes(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(refetch).toHaveBeenCalledTimes(1);
    rerender(
      <>
        {table({ refetch })}
        <Modal open title="Add">
          x
        </Modal>
      </>,
    );
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(refetch).toHaveBeenCalledTimes(1);
    act(() => notifyModalSuccess());
    expect(refetch).toHaveBeenCalledTimes(2);
    rerender(
      <>
        {table({ refetch })}
        <Modal open={false} title="Add">
          x
        </Modal>
      </>,
    );
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(refetch).toHaveBeenCalledTimes(3);
    refetch.mockResolvedValueOnce({ error: new Error('502 Bad Gateway') });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(warn).toHaveBeenCalledWith('Sensors: refresh failed:', '502 Bad Gateway');
    expect(toastStore.toasts).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(refetch).toHaveBeenCalledTimes(5);
  });
});

describe('the status poller', () => {
  it("MON-072 MON-150 MON-169 polls every 20000 ms and shows the status; after 10 failures in a row 'Currently unable to update status.' (and a flashed alert); a success shows the status again", async () => {
    vi.useFakeTimers();
    let fail = false;
    let n = 0;
    const poll = vi.fn(async () => {
      if (fail) throw new Error('down');
      n += 1;
      return `Service running (${n})`;
    });
    render(<StatusPoller label="Integration service" poll={poll} flashOnFailure />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    const status = screen.getByRole('status', { name: 'Integration service' });
    expect(status.textContent).toBe('Service running (1)');
    await act(() => vi.advanceTimersByTimeAsync(19999));
    expect(poll).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(status.textContent).toBe('Service running (2)');
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(20000 * 9));
    expect(status.textContent).toBe('Service running (2)');
    await act(() => vi.advanceTimersByTimeAsync(20000));
    expect(status.textContent).toBe('Currently unable to update status.');
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([['error', 'Currently unable to update status.']]);
    fail = false;
    await act(() => vi.advanceTimersByTimeAsync(20000));
    expect(status.textContent).toBe('Service running (3)');
  });

  it('MON-150 shows the given failure message instead, at the given limit', async () => {
    vi.useFakeTimers();
    render(<StatusPoller label="Feed" poll={() => Promise.reject(new Error('x'))} failureLimit={2} intervalMs={1000} failureMessage="The feed is not answering." />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('status', { name: 'Feed' }).textContent).toBe('The feed is not answering.');
  });

  it("MON-152 a row's status details: an icon titled 'Error connecting, click for details' opens an alert whose heading is the title", async () => {
    expect(splitDetails('<h4>Cannot read</h4><p>ENOENT</p>')).toEqual({ title: 'Cannot read', body: 'ENOENT' });
    expect(splitDetails('plain')).toEqual({ title: 'Status details', body: 'plain' });
    render(<StatusDetailsIcon details={'## Cannot read the file\nENOENT: no such file /var/log/eve.json'} />);
    const icon = screen.getByRole('button', { name: 'Error connecting, click for details' });
    expect(icon.getAttribute('title')).toBe('Error connecting, click for details');
    await userEvent.click(icon);
    const dialog = screen.getByRole('dialog', { name: 'Cannot read the file' });
    expect(within(dialog).getByRole('alert').textContent).toBe('ENOENT: no such file /var/log/eve.json');
  });
});
