import type { ActionLibraryDetail } from '@/api/contracts/library';

/** What the detail panel's toolbar knows of its Action: enough to place Preview, Edit, Clone and Copy VID. */
export type ActionDetailMenuArgs = Pick<ActionLibraryDetail, 'id' | 'vendor' | 'userPermissions'>;

declare module '@/commands/menus' {
  interface MenuArgsMap {
    'toolbar/action-detail': ActionDetailMenuArgs;
    'menu/action-queue': undefined;
  }
}
