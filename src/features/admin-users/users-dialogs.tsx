import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { newPasswordField } from '@/api/contracts/session';
import { commands } from '@/commands/registry';
import { FormActions } from '@/ui/form-actions';
import { Field } from '@/ui/field';
import { Modal } from '@/ui/modal';
import { flash } from '@/ui/toasts';
import { usersDialogs } from './dialogs';

function ResetPasswordForm({ user, onDone }: { user: { id: number; email: string }; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="flex flex-col gap-3"
      aria-label={`Reset password of ${user.email}`}
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          newPasswordField().required('New password is required').validateSync(password);
          await commands.execute('users.resetPassword', { id: user.id, password }, 'form');
          flash('notice', `The password of ${user.email} was reset.`);
          onDone();
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        }
      }}
    >
      <p className="text-xs text-muted">{user.email} is signed out everywhere and signs in with the new password. At least 12 characters; common passwords are refused.</p>
      <Field label="New password" type="password" autoFocus autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={error ?? undefined} />
      <FormActions submitLabel="Reset Password" onCancel={onDone} />
    </form>
  );
}

/** The reset password dialog, opened by the users.resetPassword command without a password. */
export function UsersDialogs() {
  const { reset } = useSnapshot(usersDialogs);
  const close = () => (usersDialogs.reset = null);
  return (
    <Modal open={!!reset} title={`Reset password of ${reset?.email ?? ''}`} onClose={close} size="sm">
      {reset && <ResetPasswordForm key={reset.id} user={reset} onDone={close} />}
    </Modal>
  );
}
