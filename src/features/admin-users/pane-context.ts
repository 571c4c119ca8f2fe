/** What the Users pane offers its commands: `ctx.pane(usersPane)` opens its Add User dialog. */
import { definePaneContext } from '@/commands/pane-contexts';

export interface UsersPaneApi {
  openAdd(): void;
}

export const usersPane = definePaneContext<UsersPaneApi>('admin-users.users');
