import * as yup from 'yup';
import { ROLES, type Role } from '@/api/contracts/permissions';
import { userCreateSchema } from '@/api/contracts/session';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { createUser, getUsers, resetUserPassword, setUserRole, usersQueryKey, type NewUser } from './api';
import { usersPane } from './pane-context';

const canManage = (ctx: CommandContext) => ctx.permissions.has('users.manage');
/** The dialogs live in the Users pane: its commands run while it is open. */
const inUsersPane = (ctx: CommandContext) => canManage(ctx) && !!ctx.pane(usersPane);
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: usersQueryKey });

/** The users a command acts on, searched by email or name. */
const userPicks: PickSource = {
  noun: 'user',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    const users = await getUsers();
    return users
      .filter((u) => !q || `${u.email} ${u.first_name} ${u.last_name}`.toLowerCase().includes(q))
      .map((u) => ({ value: u.id, label: u.email, detail: `${u.first_name} ${u.last_name}`.trim() || undefined }));
  },
};

export const adminUsersCommands: AnyCommand[] = [
  defineCommand({
    id: 'users.openAdd',
    title: 'Add User…',
    buttonLabel: 'Add User',
    category: 'Users',
    keywords: ['create', 'account', 'admin', 'dialog'],
    when: inUsersPane,
    run: (_a, ctx) => ctx.pane(usersPane)?.openAdd(),
  }),
  defineCommand<{ id: number }>({
    id: 'users.openResetPassword',
    title: 'Reset User Password…',
    buttonLabel: 'Reset password',
    category: 'Users',
    when: inUsersPane,
    args: yup.object({ id: yup.number().integer().positive().required('id is required').label('User').meta(pickFrom(userPicks)) }),
    run: ({ id }, ctx) => ctx.pane(usersPane)?.openResetPassword(id),
  }),
  defineCommand<NewUser>({
    id: 'users.add',
    title: 'Add User',
    category: 'Users',
    keywords: ['create', 'account', 'admin'],
    when: canManage,
    args: userCreateSchema as unknown as yup.Schema<NewUser>,
    run: async (args, ctx) => {
      const user = await createUser(args);
      await refresh(ctx);
      return user;
    },
  }),
  defineCommand<{ id: number; role: Role }>({
    id: 'users.setRole',
    title: 'Set User Role',
    category: 'Users',
    when: canManage,
    args: yup.object({
      id: yup.number().integer().positive().required('id is required'),
      role: yup.string<Role>().oneOf([...ROLES]).required('role is required'),
    }) as yup.Schema<{ id: number; role: Role }>,
    run: async ({ id, role }, ctx) => {
      const user = await setUserRole(id, role);
      await refresh(ctx);
      return user;
    },
  }),
  defineCommand<{ id: number; password: string }>({
    id: 'users.resetPassword',
    title: 'Reset User Password',
    category: 'Users',
    when: canManage,
    args: yup.object({
      id: yup.number().integer().positive().required('id is required'),
      password: yup.string().min(8, 'Password must be at least 8 characters').required('password is required'),
    }),
    run: async ({ id, password }, ctx) => {
      const user = await resetUserPassword(id, password);
      await refresh(ctx);
      return user;
    },
  }),
];
