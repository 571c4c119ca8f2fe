import { Suspense, useMemo } from 'react';
import type { Environment } from '@/api/contracts/session';
import type { UrlHistory } from '@/panes/dock-controller';
import { lazyComponent, useIdleOnce } from '@/panes/lazy';
import { Workbench } from '@/panes/workbench';
import { FEATURES } from './features';

/** The user menu (headless UI's menu) arrives once the workbench's first frame is drawn; until then its place shows the name. */
const UserMenu = lazyComponent(() => import('@/features/auth/user-menu'), 'UserMenu');
const PREFETCH = [UserMenu];

/**
 * The signed-in workbench (dockview, the palette, every feature's commands): its own chunk, so the
 * sign-in page downloads only the shell. The shell starts fetching it as soon as it has rendered.
 */
export function SignedIn({ env, history }: { env: Environment; history: UrlHistory & { subscribe(cb: () => void): () => void } }) {
  const user = env.user;
  const TopBarEnd = useMemo(
    () =>
      function TopBarEnd() {
        // The menu (headless UI) loads once the browser is idle after the workbench's first frame; the name stands in until then.
        const idle = useIdleOnce();
        const name = <span className="px-2 py-0.5 text-sm text-muted">{`${user.first_name} ${user.last_name}`.trim() || user.email}</span>;
        return idle ? (
          <Suspense fallback={name}>
            <UserMenu user={user} />
          </Suspense>
        ) : (
          name
        );
      },
    [user],
  );
  return <Workbench env={env} features={FEATURES} history={history} TopBarEnd={TopBarEnd} extraPrefetch={PREFETCH} />;
}
