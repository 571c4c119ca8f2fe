import { describe, expect, it, vi } from 'vitest';
import * as yup from 'yup';
import { CommandRegistry, emptyContext, defineCommand } from './registry';
import type { Permission } from '@/api/contracts/permissions';

const ctxWith = (permissions: Permission[] = []) => () => ({ ...emptyContext(), permissions: new Set(permissions) });

describe('command registry', () => {
  it('refuses a duplicate command id and frees the id when disposed', () => {
    const r = new CommandRegistry();
    const dispose = r.register({ id: 'a.one', title: 'One', category: 'A', run: () => 1 });
    expect(() => r.register({ id: 'a.one', title: 'Again', category: 'A', run: () => 2 })).toThrow(/already registered/);
    dispose();
    expect(() => r.register({ id: 'a.one', title: 'Again', category: 'A', run: () => 2 })).not.toThrow();
  });

  it('reports two commands bound to one hotkey in one context, but allows it across contexts', () => {
    const r = new CommandRegistry();
    r.register({ id: 'a.one', title: 'One', category: 'A', hotkey: 'mod+shift+x', run: () => 1 });
    expect(() => r.register({ id: 'a.two', title: 'Two', category: 'A', hotkey: 'Shift+Mod+X', run: () => 2 })).toThrow(/Hotkey conflict/);
    expect(() => r.register({ id: 'a.three', title: 'Three', category: 'A', hotkey: 'mod+shift+x', hotkeyContext: 'jobs', run: () => 3 })).not.toThrow();
    expect(r.commandForHotkey('mod+shift+x', 'jobs')?.id).toBe('a.three');
    expect(r.commandForHotkey('mod+shift+x', 'actions')?.id).toBe('a.one');
    expect(r.commandForHotkey('mod+shift+x', null)?.id).toBe('a.one');
  });

  it('validates arguments with the command schema before running', async () => {
    const r = new CommandRegistry(ctxWith());
    const run = vi.fn(({ id }: { id: number }) => id * 2);
    r.register(defineCommand({ id: 'jobs.double', title: 'Double', category: 'Jobs', args: yup.object({ id: yup.number().required('id is required') }), run }));
    await expect(r.execute('jobs.double', {})).rejects.toThrow(/id is required/);
    expect(run).not.toHaveBeenCalled();
    await expect(r.execute('jobs.double', { id: '21' })).resolves.toBe(42);
  });

  it('checks when and enabled from the context, so a missing permission refuses the command', async () => {
    const run = vi.fn();
    const r = new CommandRegistry(ctxWith(['jobs.cancel']));
    r.register({ id: 'jobs.cancel', title: 'Cancel Job', category: 'Jobs', when: (c) => c.permissions.has('jobs.cancel'), run });
    r.register({ id: 'jobs.destroy', title: 'Delete Job', category: 'Jobs', when: (c) => c.permissions.has('jobs.destroy'), run });
    r.register({ id: 'jobs.never', title: 'Never', category: 'Jobs', enabled: () => false, run });
    await r.execute('jobs.cancel');
    await expect(r.execute('jobs.destroy')).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(r.execute('jobs.never')).rejects.toMatchObject({ kind: 'disabled' });
    await expect(r.execute('jobs.unknown')).rejects.toMatchObject({ kind: 'unknown' });
    expect(run).toHaveBeenCalledTimes(1);
    expect(r.visible().map((c) => c.id).sort()).toEqual(['jobs.cancel', 'jobs.never']);
  });

  it('reports errors of interactive sources to the user and keeps scripts and forms quiet', async () => {
    const r = new CommandRegistry();
    const reporter = vi.fn();
    r.setErrorReporter(reporter);
    r.register({
      id: 'x.fail',
      title: 'Fail',
      category: 'X',
      run: () => {
        throw new Error('Boom');
      },
    });
    await expect(r.execute('x.fail', undefined, 'palette')).rejects.toThrow('Boom');
    expect(reporter).toHaveBeenCalledWith('Boom');
    await expect(r.execute('x.fail', undefined, 'script')).rejects.toThrow('Boom');
    expect(reporter).toHaveBeenCalledTimes(1);
    // A form shows its own failure (in its alert): no toast repeats it.
    await expect(r.execute('x.fail', undefined, 'form')).rejects.toThrow('Boom');
    expect(reporter).toHaveBeenCalledTimes(1);
  });

  it('notifies subscribers when commands come and go', () => {
    const r = new CommandRegistry();
    const listener = vi.fn();
    r.subscribe(listener);
    const dispose = r.registerAll([
      { id: 'a.one', title: 'One', category: 'A', run: () => 1 },
      { id: 'a.two', title: 'Two', category: 'A', run: () => 2 },
    ]);
    dispose();
    expect(listener).toHaveBeenCalledTimes(4);
    expect(r.list()).toHaveLength(0);
  });
});

describe('menus', () => {
  it('list the visible commands that name the menu', () => {
    const r = new CommandRegistry(ctxWith(['jobs.cancel']));
    r.register({ id: 'jobs.cancel', title: 'Cancel', category: 'Jobs', menus: ['row/job'], when: (c) => c.permissions.has('jobs.cancel'), run: () => 1 });
    r.register({ id: 'jobs.destroy', title: 'Delete', category: 'Jobs', menus: ['row/job'], when: (c) => c.permissions.has('jobs.destroy'), run: () => 1 });
    r.register({ id: 'jobs.view', title: 'View', category: 'Jobs', run: () => 1 });
    expect(r.forMenu('row/job').map((c) => c.id)).toEqual(['jobs.cancel']);
  });
});
