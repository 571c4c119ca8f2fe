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
import { DataTable, type DataColumn } from '@/ui/data-table';
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


/** Administration of users: list, add, set a role, reset a password. */
export function UsersPane() {
  const { data: users, error, refetch } = useUsers();
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

  const columns: DataColumn<UserRow>[] = [
    { key: 'id', label: 'ID', weight: 0.4, text: (u) => String(u.id), render: (u) => <span className="font-mono text-2xs">{u.id}</span> },
    { key: 'email', label: 'Email', weight: 1.6, text: (u) => u.email, render: (u) => u.email },
    { key: 'name', label: 'Name', text: (u) => `${u.first_name} ${u.last_name}`, render: (u) => `${u.first_name} ${u.last_name}`.trim() },
    {
      key: 'role',
      label: 'Role',
      text: (u) => ROLE_LABELS[u.role],
      render: (u) => (
        <select aria-label={`Role of ${u.email}`} className="rounded border border-line bg-surface px-1 py-0.5" value={u.role} onChange={(e) => void changeRole(u, e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      hideLabel: true,
      right: true,
      render: (u) => (
        <CommandButton command="users.resetPassword" args={{ id: u.id }} variant="ghost" aria-label={`Reset password of ${u.email}`}>
          Reset password
        </CommandButton>
      ),
    },
  ];

  return (
    <div className="p-4">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="text-base font-semibold">Users</h2>
        <CommandButton command="users.openAdd" variant="primary" />
      </div>
      {error && !users ? (
        <div role="alert">{error.message}</div>
      ) : (
        <DataTable<UserRow> id="users-table" label="Users" columns={columns} rows={users} rowKey={(u) => u.id} refetch={refetch} loading={<div className="text-muted">Loading users…</div>} />
      )}
      <Modal open={adding} title="Add User" onClose={() => setAdding(false)}>
        {adding && <AddUserForm onDone={() => setAdding(false)} />}
      </Modal>
    </div>
  );
}
