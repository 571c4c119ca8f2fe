import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import type { CommandContext, DockControl } from '@/commands/types';
import { currentActionPane } from '@/commands/entity-picks';
import { paneContexts } from '@/commands/pane-contexts';
import { headlessCommands } from './headless-commands';

const dock: DockControl = { openUrl: () => undefined, focusNext: () => undefined, moveActive: () => undefined, closeActive: () => undefined, resetLayout: () => undefined };
const USER = { id: 1, email: 'admin@example.com', first_name: 'A', last_name: 'D', role: 'admin' as const, permissions: [...PERMISSIONS] };

function visibleOn(kind: string | null): string[] {
  const ctx: CommandContext = { ...emptyContext(), user: USER, permissions: new Set(PERMISSIONS), licensedFeatures: new Set(['cloud', 'endpoint']), dock, activePane: kind ? { kind, params: { id: '12' }, id: 'pane-1' } : null };
  // The preview pane provides the Action it shows, as in the workbench.
  if (kind === 'action-preview') disposers.push(paneContexts.provide(currentActionPane, { id: 'pane-1', kind }, { current: () => ({ value: 12, label: 'DNS Query' }) }));
  const r = new CommandRegistry(() => ctx);
  r.registerAll(headlessCommands());
  return r.visible().map((c) => `${c.title}\t${c.id}`);
}

const disposers: (() => void)[] = [];
afterEach(() => disposers.splice(0).forEach((d) => d()));

describe('the palette lists one title per command', () => {
  it.each([null, 'start', 'actions', 'jobs', 'job', 'action-preview', 'pcap-inspect', 'network-map', 'monitors', 'scripts'])('on the %s pane no two visible commands share a title (a trailing … aside)', (kind) => {
    const titles = visibleOn(kind);
    const byTitle = new Map<string, string[]>();
    for (const t of titles) {
      const [title, id] = t.split('\t') as [string, string];
      const key = title.replace(/…$/, '').replace(/^Open /, '').toLowerCase();
      byTitle.set(key, [...(byTitle.get(key) ?? []), `${title} (${id})`]);
    }
    expect([...byTitle.values()].filter((v) => v.length > 1)).toEqual([]);
  });

  it('hides commands on the Start pane that act on a focused job or Action (Cancel Job, Approve…)', () => {
    const titles = visibleOn('start').map((t) => t.split('\t')[0]);
    for (const t of ['Cancel Job', 'Approve Action', 'Reject Action', 'Publish Job Result']) expect(titles).not.toContain(t);
  });
});
