import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDraft } from '@/api/contracts/simulation-draft';
import { draftStore } from './draft-store';
import { QueuePane } from './queue-pane';

const actions = [{ id: 1, name: 'Scan ports' }, { id: 2, name: 'Resolve a C2 domain' }, { id: 3, name: 'Run whoami' }];
const stepLabels = () => within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'));

afterEach(() => {
  draftStore.draft = null;
});

describe('the queue page', () => {
  it('JOB-018 says how to make a draft when there is none', () => {
    render(<QueuePane />);
    expect(screen.getByText('No simulation draft: select Actions in the Action library and choose Add all.')).toBeTruthy();
  });

  it('JOB-042 JOB-118 shows the draft; the mouse reorders, the type switch changes the description, the trash takes and gives back an Action', async () => {
    draftStore.draft = generateDraft(actions, ['C2']);
    render(<QueuePane />);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Actions tagged C2');
    expect(screen.getByText('Sequence generated from Action library selection.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Move Run whoami up' })));
    expect(stepLabels()).toEqual(['Step 1: Scan ports', 'Step 2: Run whoami', 'Step 3: Resolve a C2 domain']);
    await act(async () => fireEvent.keyDown(screen.getByRole('listitem', { name: 'Step 1: Scan ports' }), { key: 'ArrowDown', altKey: true }));
    expect(stepLabels()).toEqual(['Step 1: Run whoami', 'Step 2: Scan ports', 'Step 3: Resolve a C2 domain']);
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: 'Evaluation' })));
    expect(screen.getByText('Evaluation generated from Action library selection.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Move Scan ports to trash' })));
    expect(stepLabels()).toEqual(['Step 1: Run whoami', 'Step 2: Resolve a C2 domain']);
    const trash = screen.getByRole('list', { name: 'Trash' });
    expect(within(trash).getByText('Scan ports')).toBeTruthy();
    await act(async () => fireEvent.click(within(trash).getByRole('button', { name: 'Restore' })));
    expect(stepLabels()).toEqual(['Step 1: Run whoami', 'Step 2: Resolve a C2 domain', 'Step 3: Scan ports']);
    expect(screen.queryByRole('list', { name: 'Trash' })).toBeNull();
    await act(async () => fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: '' } }));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
