import { describe, expect, it } from 'vitest';
import { fuzzyScore } from './fuzzy';
import { paletteRows } from './palette-rows';
import type { AnyCommand } from './types';

const cmd = (id: string, title: string, category: string, keywords?: string[]): AnyCommand => ({ id: id as `${string}.${string}`, title, category, keywords, run: () => undefined });

const all = [
  cmd('jobs.cancel', 'Cancel Job', 'Jobs'),
  cmd('jobs.publish', 'Publish Job Result', 'Jobs'),
  cmd('pane.open.jobs', 'Open Jobs', 'Panes'),
  cmd('pane.open.admin-users', 'Open Users', 'Panes'),
  cmd('users.setRole', 'Set User Role', 'Users'),
  cmd('session.signOut', 'Sign Out', 'Session', ['log out']),
];

describe('palette rows', () => {
  it('groups every command under its category, categories and titles sorted, when the query is empty', () => {
    const { rows, items } = paletteRows(all, '');
    expect(rows.filter((r) => r.type === 'header').map((r) => (r.type === 'header' ? r.category : ''))).toEqual(['Jobs', 'Panes', 'Session', 'Users']);
    expect(items.map((c) => c.id)).toEqual(['jobs.cancel', 'jobs.publish', 'pane.open.jobs', 'pane.open.admin-users', 'session.signOut', 'users.setRole']);
  });

  it('filters fuzzily and ranks title matches first', () => {
    expect(paletteRows(all, 'open users').items[0]?.id).toBe('pane.open.admin-users');
    expect(paletteRows(all, 'opjo').items.map((c) => c.id)).toEqual(['pane.open.jobs']);
    expect(paletteRows(all, 'log out').items.map((c) => c.id)).toEqual(['session.signOut']);
    expect(paletteRows(all, 'zzz').items).toEqual([]);
  });

  it('scores in-order characters only and prefers word starts', () => {
    expect(fuzzyScore('cj', 'Cancel Job')).not.toBeNull();
    expect(fuzzyScore('jc', 'Cancel Job')).toBeNull();
    expect(fuzzyScore('job', 'Open Jobs')!).toBeGreaterThan(fuzzyScore('ob', 'Open Jobs')!);
  });
});
