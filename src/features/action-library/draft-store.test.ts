import { describe, expect, it } from 'vitest';
import { draftName, generateDraft } from '@/api/contracts/simulation-draft';
import { draftStore, moveStep, restoreFromTrash, trashStep } from './draft-store';
import { setDraftType } from './draft-commands';

const actions = [{ id: 1, name: 'Scan ports' }, { id: 2, name: 'Resolve a C2 domain' }, { id: 3, name: 'Run whoami' }];

describe('simulation drafts', () => {
  it('JOB-042 JOB-118 a draft has one step per Action, the tag name and the generated description', () => {
    expect(generateDraft(actions, ['C2', 'Recon'])).toEqual({
      sim_type: 'sequence', sim_name: 'Actions tagged C2, Recon', sim_desc: 'Sequence generated from Action library selection.',
      steps: [[1], [2], [3]], step_names: ['Scan ports', 'Resolve a C2 domain', 'Run whoami'], unassigned: [], trash: [],
    });
    expect(generateDraft(actions, [], 'eval').sim_desc).toBe('Evaluation generated from Action library selection.');
    expect(draftName([], 3)).toBe('Selected Actions (3)');
    expect(draftName(['x'.repeat(300)], 1)).toHaveLength(255);
  });

  it('JOB-118 switching the type switches the generated description, not an edited one', () => {
    draftStore.draft = generateDraft(actions, []);
    setDraftType('eval');
    expect(draftStore.draft.sim_desc).toBe('Evaluation generated from Action library selection.');
    draftStore.draft.sim_desc = 'Mine';
    setDraftType('sequence');
    expect(draftStore.draft).toMatchObject({ sim_type: 'sequence', sim_desc: 'Mine' });
  });

  it('moves steps with their names, stops at the ends, and trashes and restores an Action', () => {
    const d = generateDraft(actions, []);
    expect(moveStep(d, 0, 1)).toBe(1);
    expect(d.steps).toEqual([[2], [1], [3]]);
    expect(d.step_names).toEqual(['Resolve a C2 domain', 'Scan ports', 'Run whoami']);
    expect(moveStep(d, 0, -1)).toBe(0);
    expect(moveStep(d, 2, 1)).toBe(2);
    trashStep(d, 0);
    expect(d.steps).toEqual([[1], [3]]);
    expect(d.trash).toEqual([2]);
    restoreFromTrash(d, 2);
    expect(d.trash).toEqual([]);
    expect(d.steps).toEqual([[1], [3], [2]]);
    expect(d.step_names).toEqual(['Scan ports', 'Run whoami', 'Resolve a C2 domain']);
  });
});
