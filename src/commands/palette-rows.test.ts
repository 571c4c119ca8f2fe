import { describe, expect, it } from 'vitest';
import { fuzzyScore } from './fuzzy';
import { closeMatch, paletteRows } from './palette-rows';
import type { AnyCommand } from './types';

const cmd = (id: string, title: string, category: string, keywords?: string[]): AnyCommand => ({ id: id as `${string}.${string}`, title, category, keywords, run: () => undefined });

// Titles, categories and keywords as the workbench registers them.
const all = [
  cmd('jobs.cancel', 'Cancel Job', 'Jobs', ['stop', 'abort']),
  cmd('jobs.publish', 'Publish Job Result', 'Jobs'),
  cmd('jobs.export', 'Export Jobs as CSV', 'Jobs', ['csv', 'download']),
  cmd('pane.open.jobs', 'Open Jobs', 'Panes'),
  cmd('pane.open.admin-users', 'Open Users', 'Panes'),
  cmd('users.setRole', 'Set User Role', 'Users'),
  cmd('session.signOut', 'Sign Out', 'Session', ['log out']),
  cmd('actors.downloadTokens', 'Download token CSV', 'Actors', ['bulk tokens', 'export']),
  cmd('actions.new', 'New Action', 'Actions', ['add action', 'create', 'dns', 'wizard']),
  cmd('networkMap.layoutSequential', 'Layout: Sequential', 'Network Map', ['layout', 'L3', 'sequential']),
  cmd('networkMap.layoutStandard', 'Layout: Standard', 'Network Map', ['layout', 'L1', 'standard']),
  cmd('run.action', 'Run Action…', 'Run', ['run', 'job', 'execute', 'actors', 'action']),
  cmd('run.sequence', 'Run Sequence…', 'Run', ['run', 'job', 'execute', 'actors', 'sequence', 'simulation']),
  cmd('run.evaluation', 'Run Evaluation…', 'Run', ['run', 'job', 'execute', 'actors', 'evaluation', 'simulation']),
  cmd('actions.edit', 'Edit Action', 'Actions', ['change', 'modify']),
  cmd('actions.editText', 'Edit Action Name, Description or Notes', 'Actions'),
  cmd('theme.toggle', 'Toggle Dark and Light Theme', 'Workbench', ['dark', 'light', 'appearance']),
  cmd('pcap.openPacketView', 'Open Packet View…', 'PCAP', ['pcap', 'capture']),
  cmd('scripts.run', 'Run Script', 'Scripts'),
  cmd('palette.shortcuts', 'Show Keyboard Shortcuts', 'Workbench', ['help', 'keys', 'hotkeys']),
];

const ids = (query: string, recent?: string[]) => paletteRows(all, query, recent).items.map((c) => c.id);

describe('palette ranking', () => {
  // query -> the commands expected first, in order (and, where given, commands that must not match).
  const cases: { query: string; first: string[]; absent?: string[]; below?: [string, string] }[] = [
    { query: 'dns', first: ['actions.new'], absent: ['actors.downloadTokens'] },
    { query: 'run seq', first: ['run.sequence'], absent: ['networkMap.layoutSequential'] },
    { query: 'run', first: ['run.action', 'run.evaluation', 'scripts.run', 'run.sequence'] },
    { query: 'seq', first: ['run.sequence', 'networkMap.layoutSequential'] },
    { query: 'cj', first: ['jobs.cancel'] },
    { query: 'open users', first: ['pane.open.admin-users'] },
    { query: 'opjo', first: ['pane.open.jobs'] },
    { query: 'log out', first: ['session.signOut'] },
    { query: 'expt', first: ['jobs.export'] },
    { query: 'edit action', first: ['actions.edit', 'actions.editText'] },
    // A match in the title beats one found only in the keywords ("download" is a keyword of Export Jobs).
    { query: 'download', first: ['actors.downloadTokens', 'jobs.export'] },
    // Category words find commands too, after title matches.
    { query: 'jobs cancel', first: ['jobs.cancel'] },
    { query: 'packet', first: ['pcap.openPacketView'] },
    { query: '?', first: [] },
    { query: 'shortcuts', first: ['palette.shortcuts'] },
    { query: 'zzz', first: [] },
  ];
  it.each(cases)('"$query" ranks $first first', ({ query, first, absent }) => {
    const got = ids(query);
    expect(got.slice(0, first.length)).toEqual(first);
    if (first.length === 0) expect(got).toEqual([]);
    for (const a of absent ?? []) expect(got).not.toContain(a);
  });

  it('lists recently used commands first when the query is empty, then every other command by category', () => {
    const { rows, items } = paletteRows(all, '', ['theme.toggle', 'jobs.cancel']);
    expect(items.slice(0, 2).map((c) => c.id)).toEqual(['theme.toggle', 'jobs.cancel']);
    expect(rows[0]).toEqual({ type: 'header', category: 'Recently used' });
    expect(items.filter((c) => c.id === 'jobs.cancel')).toHaveLength(1);
    expect(rows.filter((r) => r.type === 'header').map((r) => (r.type === 'header' ? r.category : ''))).toEqual(['Recently used', 'Actions', 'Actors', 'Jobs', 'Network Map', 'Panes', 'PCAP', 'Run', 'Scripts', 'Session', 'Users', 'Workbench']);
  });

  it('puts a recently used command first among equally good matches, never above a better tier', () => {
    expect(ids('run')[0]).toBe('run.action');
    expect(ids('run', ['run.sequence'])[0]).toBe('run.sequence');
    // A keyword-only match stays below title matches even when recent.
    expect(ids('download', ['jobs.export'])).toEqual(['actors.downloadTokens', 'jobs.export']);
  });

  it('scores in-order characters only and prefers word starts and runs', () => {
    expect(fuzzyScore('cj', 'Cancel Job')).not.toBeNull();
    expect(fuzzyScore('jc', 'Cancel Job')).toBeNull();
    expect(fuzzyScore('job', 'Open Jobs')!).toBeGreaterThan(fuzzyScore('ob', 'Open Jobs') ?? -Infinity);
    expect(fuzzyScore('dns', 'Download token CSV')).toBeNull();
    expect(fuzzyScore('nm', 'networkMap')).not.toBeNull();
    expect(fuzzyScore('a1000', 'A000-1000')).not.toBeNull();
  });
});

describe('close and scattered matches (which commands come before the objects quick open finds)', () => {
  const byTitle = (title: string) => all.find((c) => c.title === title)!;
  const extra = cmd('threatIntel.delete', 'Delete Threat-Intel Source', 'Integrations');
  it.each([
    ['dns', 'New Action', true],
    ['dns', 'Edit Action Name, Description or Notes', false],
    ['dns', 'Delete Threat-Intel Source', false],
    ['run seq', 'Run Sequence…', true],
    ['run seq', 'Layout: Sequential', false],
    ['oj', 'Open Jobs', true],
    ['jobs cancel', 'Cancel Job', true],
    ['clone', 'Open Users', false],
  ])('issue 21 "%s" matches %s closely: %s', (q, title, close) => {
    expect(closeMatch(title === extra.title ? extra : byTitle(title), q)).toBe(close);
  });
});
