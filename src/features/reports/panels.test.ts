import { describe, expect, it } from 'vitest';
import { addPanel, movePanel, removePanel, resizePanel } from './panels';

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
