import { defineCommand } from '@/commands/registry';
import { signOut } from '@/api/session-api';
import type { AnyCommand } from '@/commands/types';

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
];
