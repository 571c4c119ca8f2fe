import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import { changePassword, signOut } from '@/api/session-api';
import { newPasswordField } from '@/api/contracts/session';
import type { AnyCommand } from '@/commands/types';
import { authDialogs } from './dialogs';

type PasswordChange = { current_password?: string; password?: string };

export const authCommands: AnyCommand[] = [
  defineCommand({
    id: 'session.signOut',
    title: 'Sign Out',
    category: 'Session',
    keywords: ['log out', 'logout', 'exit'],
    run: async () => {
      await signOut();
      if (typeof window !== 'undefined' && window.location) window.location.assign('/');
      return { signed_out: true };
    },
  }),
  defineCommand<PasswordChange | undefined>({
    id: 'session.changePassword',
    title: 'Change Password',
    category: 'Session',
    keywords: ['password', 'account', 'security'],
    when: (ctx) => ctx.user !== null,
    args: yup.object({
      current_password: yup.string().label('Current password'),
      password: newPasswordField().label('New password'),
    }) as yup.Schema<PasswordChange | undefined>,
    run: async (args) => {
      if (!args?.current_password || !args.password) {
        // From the user menu or the palette: the change password dialog asks for both.
        authDialogs.changePassword = true;
        return { dialog: true };
      }
      return changePassword(args.current_password, args.password);
    },
  }),
];
