import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as yup from 'yup';
import { PERMISSIONS } from '@/api/contracts/permissions';
import { isScriptOnly, pickSourceOf } from '@/commands/pick';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { AnyCommand, CommandContext, DockControl } from '@/commands/types';
import { headlessCommands } from './headless-commands';

/**
 * Entity arguments are searchable pick lists, never raw ids: every registered command's argument that
 * names an entity by its id (`id`, `vid`, `…_id`, `…_ids`, or a label that says "id") either asks with a
 * pick list (`.meta(pickFrom(source))`) or is one the palette never asks for (`scriptOnly()`: another
 * way for a script to name what a pick list, or the focused row, already names).
 */
const namesAnEntity = (name: string, label: string | undefined) => /^(id|vid)$|_ids?$|_id_\d+$/.test(name) || /\bids?\b/i.test(label ?? '');

interface EntityArg {
  command: string;
  arg: string;
  label: string;
  asked: 'pick' | 'scriptOnly' | 'raw';
}

function entityArgs(commands: readonly AnyCommand[]): EntityArg[] {
  return commands.flatMap((c) => {
    if (!c.args) return [];
    const fields = (c.args.describe() as yup.SchemaObjectDescription).fields ?? {};
    return Object.entries(fields).flatMap(([arg, f]) => {
      const d = f as yup.SchemaDescription;
      if (!namesAnEntity(arg, d.label)) return [];
      const asked = pickSourceOf(d.meta) ? 'pick' : isScriptOnly(d.meta) ? 'scriptOnly' : 'raw';
      return [{ command: c.id, arg, label: d.label ?? arg, asked } as EntityArg];
    });
  });
}

const opened: string[] = [];
const dock: DockControl = { openUrl: (u) => void opened.push(u), focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
const workbench = (): CommandContext => ({ ...emptyContext(), permissions: new Set(PERMISSIONS), dock, confirm: async () => true });

afterEach(() => {
  vi.unstubAllGlobals();
  opened.length = 0;
});

describe('entity arguments of every registered command are pick lists', () => {
  it('no command asks for an entity by a raw id: each entity argument has a pick source or is given only by scripts', () => {
    const found = entityArgs(headlessCommands());
    // The walk finds the entity arguments (it would pass vacuously if the schemas were not read).
    expect(found.filter((a) => a.asked === 'pick').length).toBeGreaterThan(60);
    expect(found.filter((a) => a.asked === 'raw').map((a) => `${a.command} ${a.arg} (${a.label})`)).toEqual([]);
  });

  it('the Open … commands of panes that show one entity ask for it with a pick list of that kind', () => {
    const commands = new Map<string, AnyCommand>(headlessCommands().map((c) => [c.id, c]));
    const noun = (id: string, arg: string) => pickSourceOf(((commands.get(id)?.args?.describe() as yup.SchemaObjectDescription).fields[arg] as yup.SchemaDescription).meta)?.noun;
    expect(noun('pane.open.job', 'id')).toBe('job');
    expect(noun('pane.open.simulation', 'vid')).toBe('simulation');
    expect(noun('pane.open.simulation-edit', 'vid')).toBe('simulation');
    expect(noun('pane.open.simulation-clone', 'vid')).toBe('simulation');
    expect(noun('pane.open.node-edit', 'id')).toBe('actor');
    expect(noun('pane.open.monitor-edit', 'id')).toBe('monitor');
    expect(noun('pane.open.action-preview', 'id')).toBe('action');
  });

  it('scripts still type the id or VID: pane.open.job id=5 opens /jobs/5, a VID opens as typed, and a picked simulation id opens by its VID', async () => {
    const r = new CommandRegistry(workbench);
    r.registerAll(headlessCommands());
    const search = vi.fn((url: string) => {
      const q = new URL(url, 'http://x').searchParams;
      const results = q.get('kind') === 'simulation' && q.get('q') === '7' ? [{ kind: 'simulation', id: 7, label: 'Ransomware Kill Chain', detail: 'S104-762', vid: 'S104-762', subtype: 'sequence', url: '/simulation/S104-762', match: 'exact' }] : [];
      return Promise.resolve(new Response(JSON.stringify({ q: q.get('q'), results }), { status: 200, headers: { 'content-type': 'application/json' } }));
    });
    vi.stubGlobal('fetch', search);
    await r.execute('pane.open.job', { id: 5 }, 'script');
    await r.execute('pane.open.simulation', { vid: 'S250-138' }, 'script');
    await r.execute('pane.open.simulation-edit', { vid: 7 }, 'palette');
    await expect(r.execute('pane.open.simulation', { vid: '8' }, 'script')).rejects.toThrow('No simulation with id 8 was found.');
    expect(opened).toEqual(['/jobs/5', '/simulation/S250-138', '/simulation/S104-762/edit']);
  });
});
