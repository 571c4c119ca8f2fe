import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as yup from 'yup';
import { API, useMswServer } from '../../tests/msw';
import type { SearchAnswer, SearchResult } from '@/api/contracts/search';
import { bindHotkeys } from './hotkeys';
import { CommandPalette } from './palette';
import { closePalette, openPalette, openPaletteFor, paletteStore } from './palette-store';
import { CommandRegistry, emptyContext } from './registry';
import { rememberCommand } from './recent-commands';

const server = useMswServer();
const searches: string[] = [];
const FOUND: SearchResult[] = [
  { kind: 'action', id: 7, label: 'DNS Tunneling over TXT', detail: 'A000-1007 · dns', vid: 'A000-1007', subtype: 'dns', url: '/manage_sims/action/A000-1007', match: 'exact' },
  { kind: 'actor', id: 3, label: 'dmz-web-1', detail: '10.0.1.5 · online', vid: null, subtype: null, url: '/topology/nodes/3/edit', match: 'substring' },
];

// jsdom has no layout, so the real virtualizer renders no rows: list them all here. Real
// virtualization is exercised in Chromium by the browser tests and the palette benchmark.
vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 32, size: estimateSize(index), end: (index + 1) * 32, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 32, scrollToIndex: () => undefined };
  },
}));

beforeEach(() => {
  closePalette();
  localStorage.clear();
  searches.length = 0;
  server.use(
    http.get(`${API}/search.json`, ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      searches.push(q);
      return HttpResponse.json<SearchAnswer>({ q, results: q.toLowerCase().startsWith('a000') ? FOUND : [] });
    }),
  );
});

const USER = { id: 42, email: 'op@example.com', first_name: 'O', last_name: 'P', role: 'operator' as const, permissions: [] };

function setup() {
  const registry = new CommandRegistry(() => ({ ...emptyContext(), user: USER }));
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

  it('issue 21 runs a command typed with its arguments, as a script line (`pane.open.job id=812`), first in the list', async () => {
    const { registry, open } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), '>pane.open.job id=812');
    const first = (await screen.findAllByRole('option'))[0]!;
    expect(first.textContent).toBe('pane.open.job id=812Open Job…');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(open.mock.calls[0]![0]).toEqual({ id: '812' });
    expect(paletteStore.open).toBe(false);
  });

  it('offers no typed line for a command that is not there or with a variable', async () => {
    const { registry } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    const input = await screen.findByRole('combobox');
    await userEvent.type(input, '>jobs.nothing id=1');
    expect(screen.queryByText('Run as typed')).toBeNull();
    await userEvent.clear(input);
    await userEvent.type(input, '>pane.open.job id=$job.id');
    expect(screen.queryByText('Run as typed')).toBeNull();
  });

  it('says so when nothing matches', async () => {
    const { registry } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), 'qqqq');
    expect(await screen.findByText('No matching commands or objects')).toBeTruthy();
    expect(searches).toEqual(['qqqq']);
  });

  it('lists the recently used commands first, most recent first (kept per user)', async () => {
    const { registry } = setup();
    rememberCommand(USER.id, 'jobs.cancel');
    rememberCommand(USER.id, 'palette.open');
    rememberCommand(99, 'jobs.publish');
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await screen.findByRole('combobox', { name: 'Command palette' });
    expect(screen.getAllByRole('option').map((o) => o.textContent?.replace(/Ctrl.*$/, ''))).toEqual(['Show Command Palette', 'Cancel Job', 'Publish Job Result', 'Open Job…']);
    expect(screen.getByText('Recently used')).toBeTruthy();
    // Running one from the palette makes it the most recent.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    act(() => openPalette());
    await screen.findByRole('combobox', { name: 'Command palette' });
    expect(screen.getAllByRole('option').map((o) => o.textContent?.replace(/Ctrl.*$/, ''))).toEqual(['Publish Job Result', 'Show Command Palette', 'Cancel Job', 'Open Job…']);
  });

  it('hides commands whose when fails instead of listing them greyed', async () => {
    const { registry } = setup();
    registry.register({ id: 'actions.approve', title: 'Approve Action', category: 'Actions', when: () => false, run: vi.fn() });
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), '>appr');
    expect(screen.queryByRole('option', { name: /Approve Action/ })).toBeNull();
    expect(screen.getByText('No matching commands')).toBeTruthy();
  });

  it('finds objects with one search call and opens one on Enter; an exact VID comes before commands', async () => {
    const { registry } = setup();
    const opened: string[] = [];
    registry.register({ id: 'pane.openUrl', title: 'Go to URL…', category: 'Workbench', args: yup.object({ url: yup.string().required() }), run: ({ url }: { url: string }) => void opened.push(url) });
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), 'a000-1007');
    const options = await screen.findAllByRole('option', { name: /DNS Tunneling|dmz-web-1/ });
    expect(options.map((o) => o.textContent)).toEqual(['DNS Tunneling over TXTA000-1007 · dnsAction', 'dmz-web-110.0.1.5 · onlineActor']);
    expect(screen.getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('2 objects')).toBeTruthy();
    // Typed quickly, the query is searched once the typing pauses (earlier calls are aborted if they started).
    expect(searches.at(-1)).toBe('a000-1007');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(opened).toEqual(['/manage_sims/action/A000-1007']));
    expect(paletteStore.open).toBe(false);
  });

  it('issue 21 lists the commands that match closely, then the objects found, then commands matched only scattered ("dns")', async () => {
    const { registry } = setup();
    registry.register({ id: 'threatIntel.delete', title: 'Delete Threat-Intel Source', category: 'Integrations', run: vi.fn() });
    registry.register({ id: 'actions.new', title: 'New Action', category: 'Actions', keywords: ['dns'], run: vi.fn() });
    const dnsQuery: SearchResult = { kind: 'action', id: 9, label: 'DNS Query for Known C2 Domain', detail: 'A101-295 · dns', vid: 'A101-295', subtype: 'dns', url: '/manage_sims/action/A101-295', match: 'prefix' };
    server.use(http.get(`${API}/search.json`, ({ request }) => HttpResponse.json<SearchAnswer>({ q: new URL(request.url).searchParams.get('q') ?? '', results: [dnsQuery] })));
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    await userEvent.type(await screen.findByRole('combobox'), 'dns');
    await screen.findByRole('option', { name: /DNS Query/ });
    expect(screen.getAllByRole('option').map((o) => o.textContent?.replace(/A101.*$/, ''))).toEqual(['New Action', 'DNS Query for Known C2 Domain', 'Delete Threat-Intel Source']);
    expect(screen.getByText('More Commands')).toBeTruthy();
  });

  it('lists commands only, and calls no search, after a > prefix (shown in the footer)', async () => {
    const { registry } = setup();
    render(<CommandPalette registry={registry} />);
    act(() => openPalette());
    const input = await screen.findByRole('combobox');
    expect(screen.getByText(/Start with > for commands only/)).toBeTruthy();
    await userEvent.type(input, '>a000');
    await new Promise((r) => setTimeout(r, 300));
    expect(searches).toEqual([]);
    expect(screen.getByText(/Commands only/)).toBeTruthy();
    expect(screen.queryByRole('option', { name: /DNS Tunneling/ })).toBeNull();
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

  it('of a command whose required arguments are missing open its argument form (the palette\'s), whatever has the focus; Escape closes it, Enter runs it', async () => {
    const { registry } = setup();
    const setRange = vi.fn();
    registry.register({
      id: 'reports.setTimeRange',
      title: 'Set Dashboard Time Range',
      category: 'Reports',
      hotkey: 't',
      args: yup.object({ count: yup.number().integer().min(0).required('count is required').label('Last (count)') }),
      run: setRange,
    });
    const errors = vi.fn();
    registry.setErrorReporter(errors);
    const unbind = bindHotkeys(registry, () => null, { askArgs: (c) => openPaletteFor(c.id) });
    render(
      <>
        <section tabIndex={0} aria-label="A panel" />
        <CommandPalette registry={registry} />
      </>,
    );
    const press = () => userEvent.keyboard('t');
    screen.getByRole('region', { name: 'A panel' }).focus();
    await press();
    await screen.findByRole('form', { name: 'Arguments for Set Dashboard Time Range' });
    expect(screen.queryByRole('combobox', { name: 'Command palette' })).toBeNull();
    // The typed key opened the form; it is not typed into the form.
    expect((screen.getByRole('spinbutton', { name: /Last \(count\)/ }) as HTMLInputElement).value).toBe('');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(paletteStore.open).toBe(false));
    screen.getByRole('region', { name: 'A panel' }).focus();
    await press();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(paletteStore.open).toBe(false));
    screen.getByRole('region', { name: 'A panel' }).focus();
    await press();
    await userEvent.type(await screen.findByRole('spinbutton', { name: /Last \(count\)/ }), '7{Enter}');
    await waitFor(() => expect(setRange).toHaveBeenCalledWith({ count: 7 }, expect.anything()));
    expect(errors).not.toHaveBeenCalled();
    unbind();
  });
});
