import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CloudSaveModal } from './cloud-save-modal';

const renderModal = (canApprove: boolean) =>
  render(<CloudSaveModal open restrictions={[]} canApprove={canApprove} saving={false} onClose={() => undefined} onSave={() => undefined} />);

describe('the Save Cloud Action modal', () => {
  it('ACT-084 offers Approve Now only to a user with the approve permission; Add to Approval Queue to everyone', async () => {
    const view = renderModal(false);
    await screen.findByRole('dialog', { name: 'Save Cloud Action' });
    expect(screen.getByRole('button', { name: 'Add to Approval Queue' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve Now' })).toBeNull();
    view.unmount();
    renderModal(true);
    await screen.findByRole('dialog', { name: 'Save Cloud Action' });
    expect(screen.getByRole('button', { name: 'Approve Now' })).toBeTruthy();
  });
});
