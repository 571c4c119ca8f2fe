/** What the Users pane offers its commands: `ctx.pane(usersPane)` opens its Add User and Reset password dialogs. */
import { definePaneContext } from '@/commands/pane-contexts';

export interface UsersPaneApi {
  openAdd(): void;
  /** Opens the Reset password dialog of the listed user with this id (no-op for an id not listed). */
  openResetPassword(id: number): void;
}

export const usersPane = definePaneContext<UsersPaneApi>('admin-users.users');
