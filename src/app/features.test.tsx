import { describe, expect, it } from 'vitest';
import { SPEC_PANES } from '@/panes/spec-routes';
import { FEATURES } from './features';

describe('the workbench builds every pane the specs name', () => {
  it('each pane of the spec table has exactly one feature component, so no deep link shows "This pane is not built yet."', () => {
    const built = FEATURES.flatMap((f) => (f.panes ?? []).map((p) => p.id));
    const missing = SPEC_PANES.map((p) => p.id).filter((id) => !built.includes(id));
    expect(missing).toEqual([]);
    const twice = built.filter((id, i) => built.indexOf(id) !== i);
    expect(twice).toEqual([]);
  });
});
