import * as yup from 'yup';
import { ROLES, type Role } from '@/api/contracts/permissions';
import { newPasswordField, userCreateSchema, type UserRow } from '@/api/contracts/session';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { createUser, getUsers, resetUserPassword, setUserRole, usersQueryKey, type NewUser } from './api';
import { usersDialogs } from './dialogs';
import { usersPane } from './pane-context';

const canManage = (ctx: CommandContext) => ctx.permissions.has('users.manage');
/** The Add User dialog lives in the Users pane: its command runs while the pane is open. */
const inUsersPane = (ctx: CommandContext) => canManage(ctx) && !!ctx.pane(usersPane);
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: usersQueryKey });

const userLabel = (u: UserRow) => `${u.email}${u.first_name || u.last_name ? ` (${`${u.first_name} ${u.last_name}`.trim()})` : ''}`;

/** The users an administrator picks from (searched by email and name). */
const userPicks: PickSource = {
  noun: 'user',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getUsers())
      .filter((u) => !q || userLabel(u).toLowerCase().includes(q))
      .slice(0, 20)
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
      id: yup.number().integer().positive().required('id is required').label('User').meta(pickFrom(userPicks)),
      role: yup.string<Role>().oneOf([...ROLES]).required('role is required').label('Role'),
    }) as yup.Schema<{ id: number; role: Role }>,
    run: async ({ id, role }, ctx) => {
      const user = await setUserRole(id, role);
      await refresh(ctx);
      return user;
    },
  }),
  defineCommand<{ id: number; password?: string }>({
    id: 'users.resetPassword',
    title: 'Reset User Password',
    category: 'Users',
    keywords: ['password', 'change', 'admin'],
    when: canManage,
    args: yup.object({
      id: yup.number().integer().positive().required('id is required').label('User').meta(pickFrom(userPicks)),
      password: newPasswordField().label('New password'),
    }) as yup.Schema<{ id: number; password?: string }>,
    run: async ({ id, password }, ctx) => {
      if (!password) {
        // Without a password (the Users pane's button, the palette with a user picked): the reset dialog asks for it.
        const user = (await getUsers()).find((u) => u.id === id);
        if (!user) throw new Error(`User ${id} does not exist.`);
        usersDialogs.reset = { id, email: user.email };
        return { dialog: true };
      }
      const user = await resetUserPassword(id, password);
      await refresh(ctx);
      return user;
    },
  }),
];
