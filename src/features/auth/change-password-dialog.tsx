import { useForm } from 'react-hook-form';
import * as yup from 'yup';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { passwordChangeSchema, type PasswordChangeInput } from '@/api/contracts/session';
import { commands } from '@/commands/registry';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { Modal } from '@/ui/modal';
import { flash } from '@/ui/toasts';
import { yupResolver } from '@/ui/yup-resolver';
import { authDialogs } from './dialogs';

type Values = PasswordChangeInput & { confirm: string };

const formSchema = passwordChangeSchema.shape({
  confirm: yup.string().oneOf([yup.ref('password')], 'The passwords do not match').required('Confirm the new password'),
});

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: yupResolver<Values>(formSchema), defaultValues: { current_password: '', password: '', confirm: '' } });
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      const answer = (await commands.execute('session.changePassword', { current_password: values.current_password, password: values.password }, 'form')) as { other_sessions_ended: number };
      const others = answer.other_sessions_ended;
      flash('notice', `Your password was changed.${others ? ` ${others} other session${others === 1 ? ' was' : 's were'} signed out.` : ''}`);
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="Change password">
      <FormAlert error={error} />
      <Field label="Current password" type="password" autoFocus autoComplete="current-password" {...register('current_password')} error={errors.current_password?.message} />
      <Field label="New password" type="password" autoComplete="new-password" {...register('password')} error={errors.password?.message} />
      <Field label="Confirm new password" type="password" autoComplete="new-password" {...register('confirm')} error={errors.confirm?.message} />
      <p className="text-xs text-muted">At least 12 characters; common passwords are refused. Your other sessions are signed out.</p>
      <FormActions submitLabel="Change Password" onCancel={onDone} busy={isSubmitting} />
    </form>
  );
}

/** The change password dialog, opened by the session.changePassword command (user menu, palette). */
export function ChangePasswordDialog() {
  const { changePassword } = useSnapshot(authDialogs);
  const close = () => (authDialogs.changePassword = false);
  return (
    <Modal open={changePassword} title="Change Password" onClose={close} size="sm">
      {changePassword && <ChangePasswordForm onDone={close} />}
    </Modal>
  );
}
