import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as yup from 'yup';
import { describe, expect, it, vi } from 'vitest';
import { CommandMenu, CommandToolbar, useCommandHotkeys } from './command-menu';
import { inMenu } from './menus';
import { CommandRegistry, defineCommand, emptyContext } from './registry';

// Headless UI anchors open menus with a ResizeObserver, which jsdom lacks.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

interface Row {
  id: number;
  name: string;
  locked: boolean;
  hidden?: boolean;
}

/** A registry with three commands placed in the tab menu: open (hotkey O), rename (mod+r, blocked when locked), archive (hidden for hidden rows), and one elsewhere. */
function setup() {
  const registry = new CommandRegistry(() => emptyContext());
  const runs = { open: vi.fn(), rename: vi.fn(), archive: vi.fn() };
  registry.registerAll([
    defineCommand<{ id: number }>({
      id: 'demo.open',
      title: 'Open Demo Row',
      category: 'Demo',
      hotkey: 'o',
      args: yup.object({ id: yup.number().required() }),
      menus: [inMenu<Row>('pane/tab', { group: '1_open', args: (r) => ({ id: r.id }), title: (r) => `Open ${r.name}` })],
      run: (a) => runs.open(a),
    }),
    defineCommand<{ id: number }>({
      id: 'demo.rename',
      title: 'Rename Demo Row',
      category: 'Demo',
      hotkey: 'mod+r',
      args: yup.object({ id: yup.number().required() }),
      menus: [inMenu<Row>('pane/tab', { group: '1_open', order: 1, args: (r) => ({ id: r.id }), blockedReason: (_ctx, r) => (r.locked ? 'The row is locked.' : null) })],
      run: (a) => runs.rename(a),
    }),
    defineCommand<{ id: number }>({
      id: 'demo.archive',
      title: 'Archive Demo Row',
      category: 'Demo',
      args: yup.object({ id: yup.number().required() }),
      menus: [inMenu<Row>('pane/tab', { group: '2_change', args: (r) => ({ id: r.id }), when: (_ctx, r) => !r.hidden })],
      run: (a) => runs.archive(a),
    }),
    defineCommand({ id: 'demo.elsewhere', title: 'Somewhere Else', category: 'Demo', menus: ['row/job'], run: () => undefined }),
  ]);
  const execute = vi.spyOn(registry, 'execute');
  return { registry, runs, execute };
}

const row: Row = { id: 7, name: 'Lab', locked: false };

async function openMenu(label = 'Row actions') {
  fireEvent.click(screen.getByRole('button', { name: label }));
  return within(await screen.findByRole('menu'));
}

describe('CommandMenu', () => {
  it('lists the commands placed in its menu, in group order with a line between groups, labels from the placement', async () => {
    const { registry } = setup();
    render(<CommandMenu menu="pane/tab" args={row as never} label="Row actions" registry={registry} />);
    const menu = await openMenu();
    const items = menu.getAllByRole('menuitem');
    expect(items.map((i) => i.querySelector('span')?.textContent)).toEqual(['Open Lab', 'Rename Demo Row', 'Archive Demo Row']);
    expect(menu.queryByText('Somewhere Else')).toBeNull();
    expect(menu.getAllByRole('separator')).toHaveLength(1);
  });

  it('shows each hotkey from the command’s keybinding, none for a command without one', async () => {
    const { registry } = setup();
    render(<CommandMenu menu="pane/tab" args={row as never} label="Row actions" registry={registry} />);
    const menu = await openMenu();
    const kbd = (name: RegExp) => menu.getByRole('menuitem', { name }).querySelector('kbd')?.textContent ?? null;
    expect(kbd(/^Open Lab/)).toBe('O');
    expect(kbd(/^Rename Demo Row/)).toBe('Ctrl+R');
    expect(kbd(/^Archive Demo Row/)).toBeNull();
  });

  it('a blocked item is disabled with its reason as tooltip, and choosing it runs nothing', async () => {
    const { registry, runs, execute } = setup();
    render(<CommandMenu menu="pane/tab" args={{ ...row, locked: true } as never} label="Row actions" registry={registry} />);
    const menu = await openMenu();
    const rename = menu.getByRole('menuitem', { name: /^Rename Demo Row/ });
    expect(rename.getAttribute('aria-disabled')).toBe('true');
    expect(rename.getAttribute('title')).toBe('The row is locked.');
    fireEvent.click(rename);
    expect(execute).not.toHaveBeenCalled();
    expect(runs.rename).not.toHaveBeenCalled();
    expect(menu.getByRole('menuitem', { name: /^Open Lab/ }).getAttribute('aria-disabled')).toBeNull();
  });

  it('an item whose when fails is left out', async () => {
    const { registry } = setup();
    render(<CommandMenu menu="pane/tab" args={{ ...row, hidden: true } as never} label="Row actions" registry={registry} />);
    const menu = await openMenu();
    expect(menu.queryByRole('menuitem', { name: /^Archive/ })).toBeNull();
    expect(menu.queryByRole('separator')).toBeNull();
  });

  it('a click executes the item’s command with its args, from a menu', async () => {
    const { registry, runs, execute } = setup();
    render(<CommandMenu menu="pane/tab" args={row as never} label="Row actions" registry={registry} />);
    const menu = await openMenu();
    fireEvent.click(menu.getByRole('menuitem', { name: /^Archive Demo Row/ }));
    await vi.waitFor(() => expect(runs.archive).toHaveBeenCalledWith({ id: 7 }));
    expect(execute).toHaveBeenCalledWith('demo.archive', { id: 7 }, 'menu', {});
  });

  it('the keyboard opens the menu and Enter executes the active item', async () => {
    const { registry, runs, execute } = setup();
    const user = userEvent.setup();
    render(<CommandMenu menu="pane/tab" args={row as never} label="Row actions" registry={registry} />);
    screen.getByRole('button', { name: 'Row actions' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await user.keyboard('{End}');
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(runs.archive).toHaveBeenCalledWith({ id: 7 }));
    expect(execute).toHaveBeenCalledWith('demo.archive', { id: 7 }, 'menu', {});
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('hides itself when no item is visible, or says so when asked to stay', async () => {
    const { registry } = setup();
    const { unmount } = render(<CommandMenu menu="toolbar/jobs-export" label="Export" registry={registry} />);
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    unmount();
    render(<CommandMenu menu="toolbar/jobs-export" label="Export" hideWhenEmpty={false} registry={registry} />);
    const menu = await openMenu('Export');
    expect(menu.getByText('No commands available')).toBeTruthy();
  });

  it('follows the registry: a command registered later appears, a removed one goes', async () => {
    const { registry } = setup();
    render(<CommandMenu menu="row/job" args={row as never} label="Job actions" registry={registry} />);
    const dispose = registry.register(defineCommand({ id: 'demo.late', title: 'Late Arrival', category: 'Demo', menus: ['row/job'], run: () => undefined }));
    let menu = await openMenu('Job actions');
    expect(menu.getByRole('menuitem', { name: 'Late Arrival' })).toBeTruthy();
    fireEvent.keyDown(menu.getByRole('menuitem', { name: 'Late Arrival' }), { key: 'Escape' });
    dispose();
    menu = await openMenu('Job actions');
    expect(menu.queryByRole('menuitem', { name: 'Late Arrival' })).toBeNull();
  });
});

describe('CommandToolbar', () => {
  it('renders the same items as buttons with hotkey tooltips and reasons, and clicks execute as buttons', async () => {
    const { registry, runs, execute } = setup();
    render(<CommandToolbar menu="pane/tab" args={{ ...row, locked: true } as never} label="Row toolbar" registry={registry} />);
    const bar = within(screen.getByRole('toolbar', { name: 'Row toolbar' }));
    expect(bar.getAllByRole('button').map((b) => b.textContent)).toEqual(['Open Lab', 'Rename Demo Row', 'Archive Demo Row']);
    expect(bar.getByRole('button', { name: 'Open Lab' }).getAttribute('title')).toBe('Open Demo Row (O)');
    const rename = bar.getByRole('button', { name: 'Rename Demo Row' }) as HTMLButtonElement;
    expect(rename.disabled).toBe(true);
    expect(rename.getAttribute('title')).toBe('The row is locked.');
    fireEvent.click(bar.getByRole('button', { name: 'Open Lab' }));
    await vi.waitFor(() => expect(runs.open).toHaveBeenCalledWith({ id: 7 }));
    expect(execute).toHaveBeenCalledWith('demo.open', { id: 7 }, 'button', {});
  });
});

describe('useCommandHotkeys', () => {
  function Hint({ ids, registry }: { ids: string[]; registry: CommandRegistry }) {
    return <p>{useCommandHotkeys(ids, registry).map((k) => k ?? '-').join(' ')}</p>;
  }

  it('reads each command’s first hotkey, and follows registrations', () => {
    const { registry } = setup();
    render(<Hint ids={['demo.open', 'demo.rename', 'demo.archive', 'demo.later']} registry={registry} />);
    expect(screen.getByText('O Ctrl+R - -')).toBeTruthy();
    act(() => void registry.register(defineCommand({ id: 'demo.later', title: 'Later', category: 'Demo', hotkey: ['shift+l', 'alt+l'], run: () => undefined })));
    expect(screen.getByText('O Ctrl+R - Shift+L')).toBeTruthy();
  });
});
