import * as yup from 'yup';
import { ROLES, type Role } from '@/api/contracts/permissions';
import { userCreateSchema } from '@/api/contracts/session';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { createUser, resetUserPassword, setUserRole, usersQueryKey, type NewUser } from './api';

const canManage = (ctx: CommandContext) => ctx.permissions.has('users.manage');
const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: usersQueryKey });

export const adminUsersCommands: AnyCommand[] = [
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
