import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataColumn } from './data-table';
import { SortHeader, type SortState } from './table-head';

afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
});

interface Row {
  id: number;
  name: string;
  kind: string;
}
const COLUMNS: DataColumn<Row>[] = [
  { key: 'name', label: 'Name', render: (r) => r.name },
  { key: 'kind', label: 'Kind', render: (r) => r.kind },
];
const ROWS: Row[] = [
  { id: 1, name: 'Lab hook', kind: 'webhook' },
  { id: 2, name: 'Core EVE', kind: 'suricata_eve' },
];

function Sorted() {
  const [sort, setSort] = useState<SortState<'name' | 'kind'>>({ key: 'name', dir: 'asc' });
  return (
    <table>
      <thead>
        <tr>
          <SortHeader label="Name" sortKey="name" sort={sort} setSort={setSort} className="" />
          <SortHeader label="Kind" sortKey="kind" sort={sort} setSort={setSort} className="" />
        </tr>
      </thead>
    </table>
  );
}

describe('table configuration (section 3)', () => {
  it('MON-049 a table has its caption, columns in order, a type filter as tabs, and its empty message; headers are sorted asc, desc or unsorted', async () => {
    const tabs = [
      { id: 'all', label: 'All' },
      { id: 'webhook', label: 'Webhooks', filter: (r: Row) => r.kind === 'webhook' },
    ];
    render(<DataTable<Row> id="cfg" label="Sensors" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} tabs={tabs} empty="No sensors yet." />);
    const table = screen.getByRole('table', { name: 'Sensors' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Kind']);
    await userEvent.click(screen.getByRole('tab', { name: 'Webhooks' }));
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['Lab hookwebhook']);
    document.body.innerHTML = '';

    render(<DataTable<Row> id="cfg-empty" label="Sensors" columns={COLUMNS} rows={[]} rowKey={(r) => r.id} empty="No sensors yet." />);
    expect(screen.getByText('No sensors yet.')).toBeTruthy();
    document.body.innerHTML = '';

    render(<Sorted />);
    const [name, kind] = screen.getAllByRole('columnheader') as [HTMLElement, HTMLElement];
    expect([name.getAttribute('aria-sort'), kind.getAttribute('aria-sort')]).toEqual(['ascending', 'none']);
    await userEvent.click(within(name).getByRole('button'));
    expect([name.getAttribute('aria-sort'), kind.getAttribute('aria-sort')]).toEqual(['descending', 'none']);
  });

  it('MON-167 widths remembered for another column count are a console warning; the table draws with even widths', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem('cfg-columnWidths', JSON.stringify([30, 30, 40]));
    render(<DataTable<Row> id="cfg" label="Sensors" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} />);
    expect(warn).toHaveBeenCalledWith('cfg: the remembered column widths are for 3 columns, the table has 2; even widths are used.');
    expect(screen.getAllByRole('separator')[0]!.getAttribute('aria-valuenow')).toBe('50');
    warn.mockRestore();
  });
});
