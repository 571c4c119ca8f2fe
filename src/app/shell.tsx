import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ApiError } from '@/api/http';
import { environmentQueryKey, fetchEnvironment } from '@/api/session-api';
import { SignInPage, UserMenu } from '@/features/auth';
import { Workbench } from '@/panes/workbench';
import { Button } from '@/ui/button';
import { FEATURES } from './features';
import { urlHistoryOf } from './url-history';

/** Signed out: the sign-in page. Signed in: the workbench. */
export function Shell() {
  const queryClient = useQueryClient();
  const env = useQuery({
    queryKey: environmentQueryKey,
    queryFn: fetchEnvironment,
    retry: (count, e) => !(e instanceof ApiError && e.status === 401) && count < 2,
    staleTime: Infinity,
  });
  const user = env.data?.user;
  const TopBarEnd = useMemo(() => (user ? () => <UserMenu user={user} /> : undefined), [user]);
  // The router renders this shell, so its history comes from context (importing router.ts would be a loop).
  const router = useRouter();
  const urlHistory = useMemo(() => urlHistoryOf(router.history), [router]);

  if (env.isPending) return <div className="p-6 text-muted">Loading Vigil…</div>;
  // Signed out: the session check says so (or a session ended between the check and the environment call).
  if (env.data === null || (env.error instanceof ApiError && env.error.status === 401)) {
    return <SignInPage onSignedIn={() => void queryClient.invalidateQueries({ queryKey: environmentQueryKey })} />;
  }
  if (env.error || !env.data) {
    return (
      <div role="alert" className="p-6">
        <div className="font-semibold">An error occurred</div>
        <div className="mt-1 text-muted">{env.error?.message ?? 'The director did not answer.'}</div>
        <Button className="mt-3" onClick={() => void env.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <Workbench env={env.data} features={FEATURES} history={urlHistory} {...(TopBarEnd ? { TopBarEnd } : {})} />;
}
