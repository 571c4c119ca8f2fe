import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as yup from 'yup';
import { bindHotkeys } from './hotkeys';
import { CommandPalette } from './palette';
import { closePalette, openPalette, paletteStore } from './palette-store';
import { CommandRegistry } from './registry';

// jsdom has no layout, so the real virtualizer renders no rows: list them all here. Real
// virtualization is exercised in Chromium by the browser tests and the palette benchmark.
vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 32, size: estimateSize(index), end: (index + 1) * 32, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 32, scrollToIndex: () => undefined };
  },
}));

beforeEach(() => closePalette());

function setup() {
  const registry = new CommandRegistry();
  const cancel = vi.fn();
  const open = vi.fn((args: { id: string }) => args.id);
  registry.register({ id: 'jobs.cancel', title: 'Cancel Job', category: 'Jobs', hotkey: 'mod+shift+c', run: cancel });
  registry.register({ id: 'jobs.publish', title: 'Publish Job Result', category: 'Jobs', run: vi.fn() });
  registry.register({ id: 'pane.open.job', title: 'Open Job…', category: 'Panes', args: yup.object({ id: yup.string().required('id is required') }), run: open });
  registry.register({ id: 'palette.open', title: 'Show Command Palette', category: 'Workbench', hotkey: 'mod+k', run: () => openPalette() });
  return { registry, cancel, open };
}

describe('command palette', () => {
  it('lists every command grouped by category with its hotkey, and runs the chosen one from the keyboard', async () => {
    const { registry, cancel } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    const input = await screen.findByRole('combobox', { name: 'Command palette' });
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Cancel JobCtrlShiftC', 'Publish Job Result', 'Open Job…', 'Show Command PaletteCtrlK']);
    expect(screen.getByText('Jobs')).toBeTruthy();
    await userEvent.type(input, 'pub');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Publish Job Result']);
    await userEvent.clear(input);
    await userEvent.type(input, 'job');
    // 'Open Job…' ranks first (title starts a word earlier); ArrowDown moves to 'Cancel Job'.
    expect(screen.getAllByRole('option').map((o) => o.textContent?.replace(/Ctrl.*$/, ''))).toEqual(['Open Job…', 'Cancel Job', 'Publish Job Result']);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(screen.getAllByRole('option')[1]?.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(paletteStore.open).toBe(false);
  });

  it('asks for required arguments before running, validated by the command schema', async () => {
    const { registry, open } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), 'open job');
    await userEvent.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: 'Arguments for Open Job…' });
    expect(form).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect((await screen.findByRole('alert')).textContent).toBe('id is required');
    await userEvent.type(screen.getByRole('textbox'), '812');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith({ id: '812' }, expect.anything()));
  });

  it('says so when nothing matches', async () => {
    const { registry } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), 'qqqq');
    expect(screen.getByText('No matching commands')).toBeTruthy();
  });
});

describe('hotkeys', () => {
  it('run the bound command, and plain keys typed in a field do not', async () => {
    const { registry, cancel } = setup();
    const unbind = bindHotkeys(registry, () => null);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true, bubbles: true }));
    await waitFor(() => expect(cancel).toHaveBeenCalledTimes(1));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', code: 'KeyK', ctrlKey: true, bubbles: true }));
    await waitFor(() => expect(paletteStore.open).toBe(true));
    unbind();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true, bubbles: true }));
    await new Promise((r) => setTimeout(r, 10));
    expect(cancel).toHaveBeenCalledTimes(1);
  });
});
