import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataTable, ROW_PX, VIRTUAL_THRESHOLD, type DataColumn } from './data-table';

interface Row {
  id: number;
  name: string;
}
const N = 100_000;
const VIEWPORT_PX = 400;
const ROWS: Row[] = Array.from({ length: N }, (_, i) => ({ id: i + 1, name: `Actor ${i + 1}` }));
const COLUMNS: DataColumn<Row>[] = [
  { key: 'name', label: 'Name', render: (r) => r.name, text: (r) => r.name },
  { key: 'id', label: 'Id', render: (r) => r.id },
];

// jsdom has no layout: the table's scrolling viewport reports its height and its content's (the virtualizer reads them);
// scrollTo moves scrollTop and tells the listeners, as a browser does.
const scrollTo = HTMLElement.prototype.scrollTo;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.virtualViewport !== undefined ? N * ROW_PX : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.virtualViewport !== undefined ? VIEWPORT_PX : 0;
    },
  });
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, opts?: ScrollToOptions | number) {
    if (typeof opts === 'object' && opts.top !== undefined) this.scrollTop = opts.top;
    this.dispatchEvent(new Event('scroll'));
  } as HTMLElement['scrollTo'];
});
afterAll(() => {
  // The getters shadow Element's own; removing them restores jsdom's.
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { scrollHeight?: number }).scrollHeight;
  HTMLElement.prototype.scrollTo = scrollTo;
});
beforeEach(() => localStorage.clear());

function Table() {
  const [selected, setSelected] = useState<number | null>(null);
  return <DataTable<Row> id="many" label="Many actors" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} paged={false} viewportPx={VIEWPORT_PX} selectedKey={selected} onSelect={(r) => setSelected(r.id)} role="grid" />;
}

const table = () => screen.getByRole('grid', { name: 'Many actors' });
/** The rows rendered in the body (the spacer rows are hidden). */
const rendered = () => within(table()).getAllByRole('row').slice(1);
const spacers = () => [...table().querySelectorAll('tbody tr[aria-hidden]')].map((tr) => parseFloat((tr as HTMLElement).style.height));

describe('the generic table, virtualized', () => {
  it('MON-019 holds 100k rows: only the rows in view (plus overscan) are in the document, and scrolling moves the window', () => {
    const started = performance.now();
    render(<Table />);
    const ms = performance.now() - started;
    const inView = Math.ceil(VIEWPORT_PX / ROW_PX);
    expect(rendered().length).toBeGreaterThanOrEqual(inView);
    expect(rendered().length).toBeLessThanOrEqual(inView + 2 * 10 + 1);
    expect(rendered()[0]!.querySelector('td')!.textContent).toBe('Actor 1');
    expect(table().getAttribute('aria-rowcount')).toBe(String(N + 1));
    expect(rendered()[0]!.getAttribute('aria-rowindex')).toBe('2');
    // What is not rendered is stood in for by one spacer below: the body is as tall as 100k rows.
    expect(spacers()).toEqual([(N - rendered().length) * ROW_PX]);
    expect(screen.getByRole('status', { name: 'Many actors status' }).textContent).toBe(`Showing 1–${N} of ${N}`);
    expect(screen.queryByRole('navigation', { name: 'Many actors pages' })).toBeNull();

    const viewport = table().parentElement!;
    act(() => viewport.scrollTo({ top: 50_000 * ROW_PX }));
    const names = rendered().map((r) => r.querySelector('td')!.textContent);
    expect(names).toContain('Actor 50001');
    expect(names).not.toContain('Actor 1');
    expect(rendered().length).toBeLessThanOrEqual(inView + 2 * 10 + 1);
    const [above, below] = spacers();
    expect(above! + below! + rendered().length * ROW_PX).toBe(N * ROW_PX);
    console.info(`DataTable: first render of ${N} rows in ${ms.toFixed(0)} ms (jsdom), ${rendered().length} rows in the document`);
  });

  it('MON-019 the keyboard walks the 100k rows: Ctrl+End selects and focuses the last one, scrolled into the window; PageUp and ArrowUp move from there', async () => {
    render(<Table />);
    const first = rendered()[0]!;
    first.focus();
    fireEvent.keyDown(first, { key: 'End', ctrlKey: true });
    const last = await screen.findByRole('row', { name: `Actor ${N} ${N}` });
    await waitFor(() => expect(document.activeElement).toBe(last));
    expect(last.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(last, { key: 'PageUp' });
    const up = N - (Math.floor(VIEWPORT_PX / ROW_PX) - 1);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('row', { name: `Actor ${up} ${up}` })));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await waitFor(() => expect((document.activeElement as HTMLElement).querySelector('td')!.textContent).toBe(`Actor ${up - 1}`));
  });

  it(`a table of ${VIRTUAL_THRESHOLD} rows or fewer renders them all (no spacers)`, () => {
    render(<DataTable<Row> id="few" label="Few" columns={COLUMNS} rows={ROWS.slice(0, VIRTUAL_THRESHOLD)} rowKey={(r) => r.id} paged={false} />);
    expect(within(screen.getByRole('table', { name: 'Few' })).getAllByRole('row')).toHaveLength(VIRTUAL_THRESHOLD + 1);
  });
});
