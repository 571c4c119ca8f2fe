import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { FILTER_CONFIGS, type SavedFilterBody } from '@/api/contracts/filters';
import { LIBRARY_LIMITS } from '@/api/contracts/library';
import { Modal } from '../modal';
import { TimeRangePicker } from '../time-range-picker';
import { useDebounced } from '../use-debounced';
import { FilterPanel } from './filter-panel';
import { TextList, Typeahead } from './value-selectors';

const server = useMswServer();
afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const withClient = (ui: ReactNode) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
};
const ranBy = FILTER_CONFIGS.jobs.flatMap((c) => c.match_fields).find((f) => f.match_field === 'ran_by')!;

describe('business constants of the filters (section 9)', () => {
  it('JOB-117 the filter panel opens and closes in 350 ms; the typeahead list is at most 230 px high; modals sit on layer 1050; the date picker steps by 1 minute', async () => {
    const empty: SavedFilterBody = { rules: [], page: {} };
    withClient(<FilterPanel target="jobs" items={[]} value={empty} onApply={() => undefined} open onOpenChange={() => undefined} label="Job filters" />);
    const toggle = screen.getByRole('button', { name: /Filter/, expanded: true });
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(body.style.transitionDuration).toBe('350ms');
    document.body.innerHTML = '';

    server.use(http.get(`${API}/lookup/job/ran_by`, () => HttpResponse.json({ data: [{ value: 'kim', label: 'Kim' }] })));
    withClient(<Typeahead field={ranBy} matchObject="job" value={[]} onChange={() => undefined} label="Ran By" invalid={false} />);
    await userEvent.click(screen.getByRole('combobox', { name: 'Ran By' }));
    await screen.findByRole('option', { name: 'Kim' });
    expect(screen.getByRole('listbox', { name: 'Ran By options' }).style.maxHeight).toBe('230px');
    document.body.innerHTML = '';

    render(
      <Modal open title="Layer" onClose={() => undefined}>
        body
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.closest('.z-\\[1050\\]')).not.toBeNull();
    document.body.innerHTML = '';

    render(<TimeRangePicker value={{ rangeType: 'abs', relBackCount: 1, relUnit: 'day', start: null, end: null }} onChange={() => undefined} />);
    expect(screen.getByLabelText('Start').getAttribute('step')).toBe('60');
    expect(screen.getByLabelText('End').getAttribute('step')).toBe('60');
  });

  it('JOB-112 a failed value lookup is logged only: no alert, the typeahead stays usable', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(`${API}/lookup/job/ran_by`, () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    const onChange = vi.fn();
    withClient(<Typeahead field={ranBy} matchObject="job" value={['kim']} onChange={onChange} label="Ran By" invalid={false} />);
    const input = screen.getByRole('combobox', { name: 'Ran By' });
    await userEvent.type(input, 'ki');
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Lookup failed', expect.anything()));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('listbox', { name: 'Ran By options' }).textContent).toBe('No matches');
    expect(input).toHaveProperty('value', 'ki');
    await userEvent.clear(input);
    await userEvent.keyboard('{Backspace}');
    expect(onChange).toHaveBeenCalledWith([]);
  });

  it('JOB-069 the library search waits 500 ms after the last keystroke', () => {
    vi.useFakeTimers();
    expect(LIBRARY_LIMITS.searchDebounceMs).toBe(500);
    const { result, rerender } = renderHook(({ text }) => useDebounced(text, LIBRARY_LIMITS.searchDebounceMs), { initialProps: { text: '' } });
    rerender({ text: 'mim' });
    act(() => void vi.advanceTimersByTime(300));
    rerender({ text: 'mimikatz' });
    act(() => void vi.advanceTimersByTime(499));
    expect(result.current).toBe('');
    act(() => void vi.advanceTimersByTime(1));
    expect(result.current).toBe('mimikatz');
  });
});

describe('the text-list input', () => {
  it('MON-113 drops the trailing empty entry: Enter or a comma on empty text adds nothing', async () => {
    const vid = FILTER_CONFIGS.jobs.flatMap((c) => c.match_fields).find((f) => f.selector_type === 'text_list')!;
    const onChange = vi.fn();
    render(<TextList field={vid} matchObject="job_action" value={['A100-001']} onChange={onChange} label="Action VID" invalid={false} />);
    const input = screen.getByRole('textbox', { name: 'Action VID' });
    await userEvent.type(input, 'A100-002,');
    expect(onChange).toHaveBeenLastCalledWith(['A100-001', 'A100-002']);
    onChange.mockClear();
    await userEvent.type(input, ',{Enter}   {Enter}');
    expect(onChange).not.toHaveBeenCalled();
  });
});
