import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBanner, InfoBanner } from './banners';
import { ErrorBoundary } from './error-boundary';
import { ExpandingTextArea } from './expanding-textarea';
import { Pagination, usePaging } from './pagination';

function Paged({ id, total }: { id: string; total: number }) {
  const p = usePaging(id, 20);
  return (
    <>
      <output aria-label="state">{`${p.page}/${p.perPage}`}</output>
      <Pagination label="Runs" page={p.page} perPage={p.perPage} total={total} onPage={p.setPage} onPerPage={p.setPerPage} />
    </>
  );
}

beforeEach(() => localStorage.clear());

describe('generic table widgets', () => {
  it('MON-032 MON-077 MON-174 pagination: sizes 10, 20, 30, the starting size from the caller, a new size back to page 1 and remembered under {id}-perPage', async () => {
    const { unmount } = render(<Paged id="runs-table" total={95} />);
    const nav = screen.getByRole('navigation', { name: 'Runs pages' });
    expect(screen.getByLabelText('state').textContent).toBe('1/20');
    const size = screen.getByLabelText<HTMLSelectElement>('Per page');
    expect([...size.options].map((o) => o.value)).toEqual(['10', '20', '30']);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(nav.textContent).toContain('Page 3 of 5');
    await userEvent.selectOptions(size, '30');
    expect(screen.getByLabelText('state').textContent).toBe('1/30');
    expect(nav.textContent).toContain('Page 1 of 4');
    expect(localStorage.getItem('runs-table-perPage')).toBe('30');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    render(<Paged id="runs-table" total={95} />);
    expect(screen.getByLabelText('state').textContent).toBe('1/30');
  });

  it('MON-032 MON-179 the expanding text area grows from 1 to 5 rows', async () => {
    function Area() {
      const [v, setV] = useState('');
      return <ExpandingTextArea aria-label="Notes" value={v} onChange={(e) => setV(e.target.value)} />;
    }
    render(<Area />);
    const area = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Notes' });
    expect(area.rows).toBe(1);
    await userEvent.type(area, 'a{Enter}b{Enter}c');
    expect(area.rows).toBe(3);
    await userEvent.type(area, '{Enter}d{Enter}e{Enter}f{Enter}g');
    expect(area.rows).toBe(5);
  });

  it('MON-025 MON-026 the error banner closes; the info banner has an optional loader and is closable only when asked', async () => {
    render(
      <>
        <ErrorBanner>Could not load</ErrorBanner>
        <InfoBanner loader>Loading the monitor…</InfoBanner>
        <InfoBanner closable>Saved</InfoBanner>
      </>,
    );
    expect(screen.getByRole('alert', { name: 'Error' }).textContent).toContain('Could not load');
    const infos = screen.getAllByRole('status', { name: 'Information' });
    expect(infos[0]!.querySelector('[aria-label="Loading"]')).not.toBeNull();
    expect(infos[1]!.querySelector('[aria-label="Loading"]')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Close banner' })).toHaveLength(2);
    await userEvent.click(screen.getAllByRole('button', { name: 'Close banner' })[0]!);
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Close banner' }));
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('MON-032 the error boundary shows An error occurred with the message, and Try again draws its content again', async () => {
    let broken = true;
    function Fragile() {
      if (broken) throw new Error('The figures could not be read.');
      return <p>Figures</p>;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('An error occurred');
    expect(alert.textContent).toContain('The figures could not be read.');
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Figures')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    quiet.mockRestore();
  });
});
