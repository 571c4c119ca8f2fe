import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { ApiError } from '@/api/http';
import { environmentQueryKey, fetchEnvironment, inlinedEnvironment } from '@/api/session-api';
import { SignInPage } from '@/features/auth/sign-in-page';
import { lazyComponent } from '@/panes/lazy';
import { Button } from '@/ui/button';
import { browserUrlHistory, type WatchedUrlHistory } from './url-history';

/** The workbench is its own chunk: the sign-in page never waits for it, and it is fetched while the user signs in. */
const SignedIn = lazyComponent(() => import('./signed-in'), 'SignedIn');

/** The text shown while the workbench's code arrives. */
export const WORKBENCH_LOADING = 'Loading the workbench…';

/** The address bar, watched once for the page's life. */
let history: WatchedUrlHistory | undefined;

/** Signed out: the sign-in page. Signed in: the workbench. */
export function Shell() {
  const queryClient = useQueryClient();
  const env = useQuery({
    queryKey: environmentQueryKey,
    queryFn: fetchEnvironment,
    // A load of the director's page carries the session state: the first render draws without a call.
    initialData: inlinedEnvironment,
    retry: (count, e) => !(e instanceof ApiError && e.status === 401) && count < 2,
    staleTime: Infinity,
  });
  const urlHistory = (history ??= browserUrlHistory());
  // Fetch the workbench's code at once, beside the session call (signed in) or while the user types (signed out).
  useEffect(() => void SignedIn.preload().catch(() => undefined), []);

  if (env.isPending) return <div className="p-6 text-muted">Loading Vigil…</div>;
  // Signed out: the session check says so (or a session ended between the check and the environment call).
  if (env.data === null || (env.error instanceof ApiError && env.error.status === 401)) {
    // The sign-in answer carries the environment: the workbench draws without another round trip.
    return <SignInPage onSignedIn={(answer) => queryClient.setQueryData(environmentQueryKey, answer.environment)} />;
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
  return (
    <Suspense fallback={<div className="p-6 text-muted" role="status">{WORKBENCH_LOADING}</div>}>
      <SignedIn env={env.data} history={urlHistory} />
    </Suspense>
  );
}
