import { describe, expect, it } from 'vitest';
import type { SimulationPreview } from '@/api/contracts/simulations';
import { addAction, addTag, draftBody, draftFrom, draftProblems, isDirty, moveAction, moveStep, removeAction, removeStep, removeTag, undoRemove, type EditorDraft } from './editor-store';

const a = (id: number) => ({ id, vid: `A${id}`, name: `Action ${id}`, action_type: 'socket' as const, disabled: false });
const preview = {
  id: 9, vid: 'S900-001', name: 'Chain', description: 'd', simulation_type: 'sequence', version: 4,
  tags: [{ id: 1, name: 'Mine', tagType: 'user' }, { id: 2, name: 'Product', tagType: 'verodin' }],
  steps: [
    { id: 1, name: 'One', actions: [a(1), a(2)], dns_found: false, host_cli_found: false, cloud_validation_found: false, can_run: true },
    { id: 2, name: 'Two', actions: [a(3)], dns_found: false, host_cli_found: false, cloud_validation_found: false, can_run: true },
  ],
} as unknown as SimulationPreview;
const shape = (d: EditorDraft) => d.steps.map((s) => `${s.name}:${s.actions.map((x) => x.id).join(',')}`);

describe('the simulation editor draft', () => {
  it('a clone starts as Copy of {name}; the body carries the version opened', () => {
    expect(draftFrom(preview, 'clone').sim_name).toBe('Copy of Chain');
    expect(draftBody(draftFrom(preview, 'edit'))).toEqual({ version: 4, sim_type: 'sequence', sim_name: 'Chain', sim_desc: 'd', steps: [[1, 2], [3]], step_names: ['One', 'Two'], user_tags: ['Mine'] });
  });

  it('moves steps, and Actions within and across steps (grouping)', () => {
    const d = draftFrom(preview, 'edit');
    expect(isDirty(d)).toBe(false);
    expect(moveStep(d, 0, -1)).toBe(0);
    expect(moveStep(d, 0, 1)).toBe(1);
    expect(shape(d)).toEqual(['Two:3', 'One:1,2']);
    expect(moveAction(d, 1, 0, -1)).toEqual({ step: 0, action: 1 });
    expect(shape(d)).toEqual(['Two:3,1', 'One:2']);
    expect(moveAction(d, 0, 0, 1)).toEqual({ step: 0, action: 1 });
    expect(shape(d)).toEqual(['Two:1,3', 'One:2']);
    expect(moveAction(d, 0, 1, 1)).toEqual({ step: 1, action: 0 });
    expect(shape(d)).toEqual(['Two:1', 'One:3,2']);
    expect(isDirty(d)).toBe(true);
  });

  it('removes with undo, adds Actions to a step or a new one, and names what blocks a save', () => {
    const d = draftFrom(preview, 'edit');
    removeAction(d, 0, 1);
    removeStep(d, 1);
    expect(shape(d)).toEqual(['One:1']);
    expect(undoRemove(d)).toBe('Two');
    expect(undoRemove(d)).toBe('Action 2');
    expect(undoRemove(d)).toBeNull();
    expect(shape(d)).toEqual(['One:1,2', 'Two:3']);
    expect(addAction(d, 1, a(7))).toBe(1);
    expect(addAction(d, 5, a(8))).toBe(2);
    expect(shape(d)).toEqual(['One:1,2', 'Two:3,7', 'Action 8:8']);
    d.steps[2]!.actions = [];
    d.sim_name = ' ';
    expect(draftProblems(d)).toEqual(['Name is required.', 'Step 3 has no Actions: add one or remove the step.']);
  });

  it('tags: user tags are added (any letter case is the same tag) and removed in the draft and sent; other tags are locked and not sent', () => {
    const d = draftFrom(preview, 'edit');
    expect(d.locked_tags).toEqual(['Product']);
    expect(addTag(d, 'Quarterly')).toBe(true);
    expect(addTag(d, 'mine')).toBe(false);
    removeTag(d, 'Mine');
    expect(draftBody(d).user_tags).toEqual(['Quarterly']);
    expect(isDirty(d)).toBe(true);
    // A draft kept from before tags were edited sends none: the save leaves the tags alone.
    const old = { ...draftFrom(preview, 'edit'), user_tags: undefined } as unknown as EditorDraft;
    expect('user_tags' in draftBody(old)).toBe(false);
  });
});
