import { describe, expect, it } from 'vitest';
import { addPanel, movePanel, removePanel, resizePanel } from './panels';
import { dashboardRequests, noteShownClock, panelClock, rulesFor, shownClock } from './panel-data';
import { DEFAULT_TIME_RANGE } from '@/api/contracts/time-range';
import { setDisplayTimeZone } from '@/ui/datetime';
import { parseFilterRules, type ParsedCondition, type ParsedNode } from '@/api/contracts/filters';

describe('panel edits', () => {
  it('adds with default size and options, moves, resizes within the grid and removes', () => {
    let ps = addPanel([], 'gauge');
    ps = addPanel(ps, 'radar');
    expect(ps.map((p) => [p.kind, p.w, p.h, p.options.chartMode, p.options.group_by])).toEqual([
      ['gauge', 1, 1, 'blocked', 'action_type'],
      ['radar', 2, 2, 'totals', 'tactic'],
    ]);
    const [g, r] = ps;
    expect(movePanel(ps, r!.uid, -1).map((p) => p.uid)).toEqual([r!.uid, g!.uid]);
    expect(movePanel(ps, g!.uid, -1).map((p) => p.uid)).toEqual([g!.uid, r!.uid]);
    expect(resizePanel(ps, r!.uid, 5, -5).find((p) => p.uid === r!.uid)).toMatchObject({ w: 4, h: 1 });
    expect(resizePanel(ps, g!.uid, -1, 9).find((p) => p.uid === g!.uid)).toMatchObject({ w: 1, h: 3 });
    expect(removePanel(ps, g!.uid).map((p) => p.kind)).toEqual(['radar']);
  });
});

describe('a clicked segment opens the matching jobs', () => {
  it('MON-053 the rules of a clicked Action type bar and of a missed segment are rules the jobs filter accepts', () => {
    const [panel] = addPanel([], 'bar');
    const rules = rulesFor(panel!, { key: 'file_transfer', label: 'Malicious File Transfer', metric: 'missed' });
    const tree = parseFilterRules('jobs', rules);
    const leaves = (n: ParsedNode): ParsedCondition[] => (n.kind === 'condition' ? [n] : n.children.flatMap(leaves));
    expect(leaves(tree).map((c) => [c.field, c.operator, c.values])).toEqual([
      ['action_type', 'in', ['file_transfer']],
      ['events', 'in', ['0']],
    ]);
  });
});

describe('the minute of the figures on screen', () => {
  it('MON-143 an export after the minute turned reads the minute the open dashboard shows; a closed dashboard resolves at now', () => {
    const shown = new Date('2026-11-27T10:00:00.000Z');
    const later = new Date('2026-11-27T10:01:02.000Z');
    const forget = noteShownClock(41, shown.getTime());
    expect(shownClock(41, later)).toEqual(shown);
    expect(shownClock(42, later)).toEqual(panelClock(later));
    forget();
    expect(shownClock(41, later)).toEqual(new Date('2026-11-27T10:01:00.000Z'));
  });

  it('a pane that re-rendered at the next minute is not forgotten by the previous render’s clean-up', () => {
    const first = noteShownClock(43, Date.parse('2026-11-27T10:00:00.000Z'));
    const second = noteShownClock(43, Date.parse('2026-11-27T10:01:00.000Z'));
    first();
    expect(shownClock(43, new Date('2026-11-27T10:05:00.000Z'))).toEqual(new Date('2026-11-27T10:01:00.000Z'));
    second();
  });
});

describe("a dashboard's days of the week", () => {
  it("MON-051 every panel's call asks the range's days with the user's time zone; a panel with a range of its own asks its own", () => {
    let ps = addPanel([], 'gauge');
    ps = addPanel(ps, 'line');
    ps = addPanel(ps, 'tree_map');
    const own = { ...DEFAULT_TIME_RANGE, relBackCount: 7 };
    ps = ps.map((p) => (p.kind === 'tree_map' ? { ...p, options: { ...p.options, time_range: own } } : p));
    const now = new Date('2026-11-28T12:00:00Z');
    setDisplayTimeZone('Europe/Paris');
    try {
      const { queries } = dashboardRequests({ panels: ps, time_range: { ...DEFAULT_TIME_RANGE, repeat_week_days: 'F,M' } }, now);
      const bySource = Object.fromEntries(queries.map((q) => [q.source, q.query as Record<string, unknown>]));
      expect(bySource.results).toMatchObject({ week_days: 'M,F', tz: 'Europe/Paris' });
      expect(bySource.series).toMatchObject({ week_days: 'M,F', tz: 'Europe/Paris' });
      expect(bySource.tree).not.toHaveProperty('week_days');
      expect(bySource.tree).not.toHaveProperty('tz');
      // Every day: nothing about days is asked.
      const everyDay = dashboardRequests({ panels: ps, time_range: DEFAULT_TIME_RANGE }, now).queries;
      expect(everyDay.some((q) => 'week_days' in q.query || 'tz' in q.query)).toBe(false);
    } finally {
      setDisplayTimeZone(null);
    }
  });
});
