import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CANCEL_CONFIRM, CANCEL_CONFIRM_BUTTONS } from '@/api/contracts/jobs';
import { ConfirmHost, confirmDialog } from './confirm';

describe('confirmations', () => {
  it('JOB-102 the cancel-job question names both buttons: Cancel Job and Keep Job, never OK / Cancel', async () => {
    render(<ConfirmHost />);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmDialog(CANCEL_CONFIRM, CANCEL_CONFIRM_BUTTONS);
    });
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog.textContent).toContain(CANCEL_CONFIRM);
    expect(screen.getByRole('button', { name: 'Cancel Job' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep Job' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'OK' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    // The confirming button has the focus; Keep Job answers no.
    expect(document.activeElement?.textContent).toBe('Cancel Job');
    await userEvent.click(screen.getByRole('button', { name: 'Keep Job' }));
    expect(await answer).toBe(false);
  });

  it('a custom title and Enter on the focused confirming button answers yes', async () => {
    render(<ConfirmHost />);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmDialog('Discard them?', { title: 'Unsaved Script', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing' });
    });
    await screen.findByRole('dialog', { name: 'Unsaved Script' });
    await userEvent.keyboard('{Enter}');
    expect(await answer).toBe(true);
  });
});
