import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { commands } from '@/commands/registry';
import { ROLE_LABELS } from '@/api/contracts/permissions';
import type { SessionUser } from '@/api/contracts/session';

export function UserMenu({ user }: { user: SessionUser }) {
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    <Menu as="div" className="relative">
      <MenuButton className="rounded px-2 py-0.5 text-sm hover:bg-line/60" aria-label={`User menu for ${name}`}>
        {name} <span className="text-2xs text-muted">({ROLE_LABELS[user.role]})</span>
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-[1070] mt-1 min-w-44 rounded border border-line bg-panel py-1 text-sm shadow-xl focus:outline-none">
        <div className="px-3 py-1 text-2xs text-muted">{user.email}</div>
        <MenuItem>
          <button type="button" className="block w-full px-3 py-1 text-left data-[focus]:bg-raised" onClick={() => void commands.execute('theme.toggle', undefined, 'menu')}>
            Toggle theme
          </button>
        </MenuItem>
        <MenuItem>
          <button type="button" className="block w-full px-3 py-1 text-left data-[focus]:bg-raised" onClick={() => void commands.execute('session.changePassword', undefined, 'menu').catch(() => undefined)}>
            Change Password
          </button>
        </MenuItem>
        <MenuItem>
          <button type="button" className="block w-full px-3 py-1 text-left data-[focus]:bg-raised" onClick={() => void commands.execute('session.signOut', undefined, 'menu').catch(() => undefined)}>
            Sign Out
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
