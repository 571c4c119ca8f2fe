import { useForm } from 'react-hook-form';
import { useState } from 'react';
import { ROLES, ROLE_LABELS, type Role } from '@/api/contracts/permissions';
import { userCreateSchema, type UserRow } from '@/api/contracts/session';
import { CommandButton } from '@/commands/command-menu';
import { usePaneContext } from '@/panes/use-pane-context';
import { commands } from '@/commands/registry';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { Modal } from '@/ui/modal';
import { TableHead, type Column } from '@/ui/table-head';
import { flash } from '@/ui/toasts';
import { yupResolver } from '@/ui/yup-resolver';
import { usersPane } from './pane-context';
import { useUsers, type NewUser } from './api';

function AddUserForm({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewUser>({ resolver: yupResolver<NewUser>(userCreateSchema), defaultValues: { email: '', first_name: '', last_name: '', role: 'operator', password: '' } });
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      await commands.execute('users.add', values, 'form');
      flash('notice', `User ${values.email} was added.`);
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="Add user">
      <FormAlert error={error} />
      <Field label="Email" autoFocus {...register('email')} error={errors.email?.message} />
      <div className="grid grid-cols-2 gap-2">
        <Field label="First name" {...register('first_name')} error={errors.first_name?.message} />
        <Field label="Last name" {...register('last_name')} error={errors.last_name?.message} />
      </div>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        Role
        <select className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink" {...register('role')}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <Field label="Password" type="password" autoComplete="new-password" {...register('password')} error={errors.password?.message} />
      <FormActions submitLabel="Add User" onCancel={onDone} busy={isSubmitting} />
    </form>
  );
}

const USER_COLUMNS: Column[] = [{ label: 'ID' }, { label: 'Email' }, { label: 'Name' }, { label: 'Role' }, { label: 'Actions', visible: false }];

/** Administration of users: list, add, set a role, reset a password. */
export function UsersPane() {
  const { data: users, isLoading, error } = useUsers();
  const [adding, setAdding] = useState(false);
  usePaneContext(usersPane, { openAdd: () => setAdding(true) });

  const changeRole = async (user: UserRow, role: Role) => {
    try {
      await commands.execute('users.setRole', { id: user.id, role }, 'button');
      flash('notice', `${user.email} is now ${ROLE_LABELS[role]}.`);
    } catch {
      // The command's error is already shown as a toast.
    }
  };

  return (
    <div className="p-4">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="text-base font-semibold">Users</h2>
        <CommandButton command="users.openAdd" variant="primary" />
      </div>
      {isLoading && <div className="text-muted">Loading users…</div>}
      {error && <div role="alert">{error.message}</div>}
      {users && (
        <table className="w-full text-left text-sm">
          <TableHead columns={USER_COLUMNS} />
          <tbody>
            {users.map((u) => (
              <tr key={u.id} className="border-b border-line/50">
                <td className="py-1 pr-2 font-mono text-2xs">{u.id}</td>
                <td className="py-1 pr-2">{u.email}</td>
                <td className="py-1 pr-2">{`${u.first_name} ${u.last_name}`.trim()}</td>
                <td className="py-1 pr-2">
                  <select
                    aria-label={`Role of ${u.email}`}
                    className="rounded border border-line bg-surface px-1 py-0.5"
                    value={u.role}
                    onChange={(e) => void changeRole(u, e.target.value as Role)}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="py-1 text-right">
                  <CommandButton command="users.resetPassword" args={{ id: u.id }} variant="ghost" aria-label={`Reset password of ${u.email}`}>
                    Reset password
                  </CommandButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Modal open={adding} title="Add User" onClose={() => setAdding(false)}>
        {adding && <AddUserForm onDone={() => setAdding(false)} />}
      </Modal>
    </div>
  );
}
