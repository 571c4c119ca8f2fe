import { afterEach, describe, expect, it, vi } from 'vitest';
import { PERMISSIONS } from '@/api/contracts/permissions';
import { argFields } from '@/commands/args-form';
import { paneContexts } from '@/commands/pane-contexts';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { CommandContext, DockControl } from '@/commands/types';
import { monitorCommands } from './commands';
import { monitorEditorPane, monitorsListPane } from './pane-context';

const dock: DockControl = { openUrl: vi.fn(), focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
const registry = (kind: string) => {
  const ctx = (): CommandContext => ({ ...emptyContext(), permissions: new Set(PERMISSIONS), dock, activePane: { kind, params: {} } });
  const r = new CommandRegistry(ctx);
  r.registerAll(monitorCommands);
  return r;
};
const disposers: (() => void)[] = [];
afterEach(() => disposers.splice(0).forEach((d) => d()));

describe('monitor commands', () => {
  it('every entity argument (a monitor, a simulation, Actions) is a searchable pick list, never a raw id', () => {
    const entityArgs = monitorCommands.flatMap((c) => argFields(c).filter((f) => /(^id$|_id$|_ids$)/.test(f.name)).map((f) => [c.id, f] as const));
    expect(entityArgs.length).toBeGreaterThanOrEqual(8);
    for (const [id, f] of entityArgs) expect(f.pick, `${id} ${f.name}`).not.toBeNull();
    expect(argFields(monitorCommands.find((c) => c.id === 'monitors.fromActions')!)[0]).toMatchObject({ type: 'array', label: 'Actions' });
  });

  it('the list and editor commands act through the focused pane: its selection, moves and save', async () => {
    const list = registry('monitors');
    const move = vi.fn();
    disposers.push(paneContexts.provide(monitorsListPane, { id: 'p1', kind: 'monitors' }, { selected: () => ({ id: 4, name: 'Mail', paused: true }), move, focusSearch: vi.fn() }));
    await list.execute('monitors.next');
    await list.execute('monitors.previous');
    expect(move.mock.calls).toEqual([[1], [-1]]);
    // Pause is disabled for the paused selection, Resume is not.
    expect(list.state('monitors.pause', {}, list.context()).disabled).toBe(true);
    expect(list.state('monitors.resume', {}, list.context()).disabled).toBe(false);
    await list.execute('monitors.edit', undefined);
    expect(dock.openUrl).toHaveBeenCalledWith('/monitors/4/edit');

    const editor = registry('monitor-edit');
    await expect(editor.execute('monitors.save')).rejects.toThrow('Open a monitor in the editor first.');
    const save = vi.fn(async () => ({ id: 4 }));
    disposers.push(paneContexts.provide(monitorEditorPane, { id: 'p2', kind: 'monitor-edit' }, { save, discard: vi.fn() }));
    await expect(editor.execute('monitors.save')).resolves.toEqual({ id: 4 });
  });
});
