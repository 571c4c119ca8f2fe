import { describe, expect, it } from 'vitest';
import { addPanel, movePanel, removePanel, resizePanel } from './panels';
import { rulesFor } from './panel-data';
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
