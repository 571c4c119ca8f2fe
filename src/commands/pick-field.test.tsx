import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as yup from 'yup';
import { CommandPalette } from './palette';
import { closePalette, openPalette } from './palette-store';
import { CommandRegistry } from './registry';
import { pickFrom, type PickSource } from './pick';

vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 32, size: estimateSize(index), end: (index + 1) * 32, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 32, scrollToIndex: () => undefined };
  },
}));

beforeEach(() => closePalette());

const MONITORS = [
  { value: 3, label: 'DMZ perimeter checks' },
  { value: 7, label: 'Weekly lateral movement' },
  { value: 9, label: 'Mail gateway' },
];
const source = (current: { value: number; label: string } | null): PickSource => ({
  noun: 'monitor',
  search: vi.fn((q: string) => Promise.resolve(MONITORS.filter((m) => m.label.toLowerCase().includes(q.toLowerCase())))),
  current: () => current,
});

function setup(src: PickSource, multiple = false) {
  const registry = new CommandRegistry();
  const run = vi.fn();
  registry.register({
    id: 'monitors.pause',
    title: 'Pause Monitor',
    category: 'Monitors',
    args: multiple
      ? yup.object({ ids: yup.array(yup.number().required()).min(1).required().label('Monitors').meta(pickFrom(src)) })
      : yup.object({ id: yup.number().optional().label('Monitor').meta(pickFrom(src)) }),
    run,
  });
  render(<CommandPalette registry={registry} />);
  act(() => openPalette());
  return run;
}

async function choosePause() {
  await userEvent.type(await screen.findByRole('combobox', { name: 'Command palette' }), 'pause');
  await userEvent.keyboard('{Enter}');
  return screen.findByRole('form', { name: 'Arguments for Pause Monitor' });
}

describe('entity arguments are searchable pick lists, never raw ids', () => {
  it('the palette asks for the entity with a pick list: typing searches by name, arrows move, Enter picks, Enter again runs with its id', async () => {
    const src = source(null);
    const run = setup(src);
    const form = await choosePause();
    const box = within(form).getByRole('combobox', { name: 'Monitor' });
    expect(within(form).queryByRole('spinbutton')).toBeNull();
    await userEvent.type(box, 'we');
    await waitFor(() => expect(within(form).getAllByRole('option').map((o) => o.textContent)).toEqual(['Weekly lateral movement']));
    expect(src.search).toHaveBeenLastCalledWith('we', expect.anything(), expect.anything());
    await userEvent.clear(box);
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(3));
    await userEvent.keyboard('{ArrowDown}');
    expect(within(form).getAllByRole('option')[1]?.getAttribute('aria-selected')).toBe('true');
    await userEvent.type(box, 'a');
    await waitFor(() => expect(within(form).getAllByRole('option').map((o) => o.textContent)).toEqual(['Weekly lateral movement', 'Mail gateway']));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(within(form).getByText('Mail gateway')).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(run).toHaveBeenCalledWith({ id: 9 }, expect.anything()));
  });

  it("the entity the command would act on (the pane's selection) is chosen at first: Enter runs on it", async () => {
    const run = setup(source({ value: 7, label: 'Weekly lateral movement' }));
    const form = await choosePause();
    expect(within(form).getByText('Weekly lateral movement')).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(run).toHaveBeenCalledWith({ id: 7 }, expect.anything()));
  });

  it('Enter typed before the search for the text answered waits for that answer: it never submits the form nor picks a row found for the previous text', async () => {
    // The empty text answers at once; "mail" only when the test says so.
    let answerMail: () => void = () => undefined;
    const src: PickSource = {
      noun: 'monitor',
      search: vi.fn((q: string) =>
        q === '' ? Promise.resolve(MONITORS) : new Promise<typeof MONITORS>((resolve) => (answerMail = () => resolve(MONITORS.filter((m) => m.label.toLowerCase().includes(q))))),
      ),
    };
    const run = setup(src);
    const form = await choosePause();
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(3));
    await userEvent.type(within(form).getByRole('combobox', { name: 'Monitor' }), 'mail');
    expect(within(form).queryAllByRole('option')).toEqual([]);
    await userEvent.keyboard('{Enter}');
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).queryByText(/^Chosen/)).toBeNull();
    await waitFor(() => expect(src.search).toHaveBeenLastCalledWith('mail', expect.anything(), expect.anything()));
    act(() => answerMail());
    expect((await within(form).findByText(/^Chosen/)).textContent).toBe('Chosen: Mail gateway');
    expect(run).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(run).toHaveBeenCalledWith({ id: 9 }, expect.anything()));
  });

  it('a list argument picks several, Backspace removes the last, and the schema still validates the ids', async () => {
    const run = setup(source(null), true);
    const form = await choosePause();
    const box = within(form).getByRole('combobox', { name: 'Monitors' });
    await userEvent.click(within(form).getByRole('button', { name: 'Run' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/Monitors/);
    await userEvent.type(box, 'dmz');
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    await userEvent.type(box, 'mail');
    await waitFor(() => expect(within(form).getAllByRole('option').map((o) => o.textContent)).toEqual(['Mail gateway']));
    await userEvent.keyboard('{Enter}');
    await userEvent.type(box, 'week');
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Backspace}');
    const chosen = within(form).getByRole('list', { name: 'Chosen monitors' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent?.replace('×', ''))).toEqual(['DMZ perimeter checks', 'Mail gateway']);
    await userEvent.click(within(form).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(run).toHaveBeenCalledWith({ ids: [3, 9] }, expect.anything()));
  });

  it("an option's accessible name reads its label and its detail as words (\"Job 320 DNS Query, completed\", not \"Job 320DNS Query…\")", async () => {
    const jobs: PickSource = {
      noun: 'job',
      search: () => Promise.resolve([{ value: 320, label: 'Job 320', detail: 'DNS Query, completed' }, { value: 321, label: 'Job 321' }]),
    };
    const run = setup(jobs);
    const form = await choosePause();
    const option = await within(form).findByRole('option', { name: 'Job 320 DNS Query, completed' });
    expect(within(form).getByRole('option', { name: 'Job 321' })).toBeTruthy();
    await userEvent.click(option);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(run).toHaveBeenCalledWith({ id: 320 }, expect.anything()));
  });

  it("a pick list that depends on another searches the choice made there: the files offered are the chosen Action's, and change with it", async () => {
    const FILES: Record<number, { value: number; label: string }[]> = { 1: [{ value: 11, label: 'dropper.exe' }], 2: [{ value: 21, label: 'beacon.dll' }, { value: 22, label: 'loader.ps1' }] };
    const actions: PickSource = { noun: 'action', search: () => Promise.resolve([{ value: 1, label: 'Email - Phishing' }, { value: 2, label: 'Cobalt Strike Beacon' }]) };
    const files: PickSource = { noun: 'pending file', search: vi.fn((_q: string, _s: AbortSignal, chosen) => Promise.resolve(FILES[chosen['id']?.[0]?.value ?? 0] ?? [])) };
    const registry = new CommandRegistry();
    const run = vi.fn();
    registry.register({
      id: 'actions.fileApprove',
      title: 'Approve Pending File as Safe',
      category: 'Actions',
      args: yup.object({ id: yup.number().required().label('Action').meta(pickFrom(actions)), file_id: yup.number().required().label('Pending file').meta(pickFrom(files)) }),
      run,
    });
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox', { name: 'Command palette' }), 'approve pending');
    await userEvent.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: 'Arguments for Approve Pending File as Safe' });
    expect(await within(form).findByText('No pending file matches.')).toBeTruthy();
    await userEvent.click(await within(form).findByRole('option', { name: 'Cobalt Strike Beacon' }));
    await waitFor(() => expect(within(form).getAllByRole('option', { name: /\.(dll|ps1)$/ }).map((o) => o.textContent)).toEqual(['beacon.dll', 'loader.ps1']));
    await userEvent.click(within(form).getByRole('option', { name: 'loader.ps1' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(run).toHaveBeenCalledWith({ id: 2, file_id: 22 }, expect.anything()));
  });
});
