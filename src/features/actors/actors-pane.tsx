import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { ACTORS_REPOLL_LIMIT_MIN } from '@/api/contracts/actors';
import { CommandButton } from '@/commands/command-menu';
import { Button } from '@/ui/button';
import { getTables, tablesQueryKey } from './api';
import { ActorsTable } from './actors-table';
import { BulkTokensTable } from './bulk-table';
import { CreateTokenModal } from './create-token-modal';
import { InstallerModal } from './installer-modal';
import { RegisterPushModal } from './register-push-modal';
import { actorsStore, bulkRefetchInterval, modalOpen, startPolling } from './store';

function TitleBar({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-1 flex items-center justify-between border-b border-line pb-1">
      <h3 className="text-sm font-semibold">{title}</h3>
      <div className="flex gap-2">{children}</div>
    </div>
  );
}

/**
 * The Actors pane: bulk registration tokens (refreshed every 5000 ms, MON-068) and the registered actors.
 * The refreshing stops after the re-poll time limit (MON-185) until the user resumes it.
 */
export function ActorsPane() {
  const snap = useSnapshot(actorsStore);
  useEffect(() => startPolling(), []);
  // Read in render, so a modal closing or a resume draws the pane again and restarts the refreshing; while
  // refreshing, react-query asks bulkRefetchInterval after every fetch, which stops it at the limit.
  const paused = modalOpen(snap) || snap.pollingStopped;
  const q = useQuery({ queryKey: tablesQueryKey, queryFn: () => getTables(true), refetchInterval: paused ? false : () => bulkRefetchInterval() });
  const bulk = q.data?.bulk.data;

  // A fetch error while rows are shown is logged and polling continues (section 8).
  useEffect(() => {
    if (q.isError && q.data) console.warn('Actors tables refresh failed:', q.error.message);
  }, [q.isError, q.error, q.data]);

  // A row whose pending actors are gone cannot stay expanded (MON-071).
  useEffect(() => {
    const row = bulk?.find((r) => r.id === actorsStore.expandedId);
    if (actorsStore.expandedId !== null && (!row || row.active_pending === 0)) actorsStore.expandedId = null;
  }, [bulk]);

  return (
    <div className="flex h-full flex-col gap-4 overflow-auto p-4">
      <h2 className="text-base font-semibold">Actors</h2>
      {snap.pollingStopped && (
        <div role="status" className="flex items-center gap-2 rounded border border-amber-500/60 bg-amber-500/10 px-3 py-2 text-sm">
          Auto-refresh stopped after {ACTORS_REPOLL_LIMIT_MIN} minutes.
          <CommandButton command="actors.resumeRefresh" args={{}}>
            Resume auto-refresh
          </CommandButton>
        </div>
      )}
      {q.isPending && <p className="text-muted">Loading actors…</p>}
      {q.isError && !q.data && (
        <div role="alert" className="flex items-center gap-2 rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
          {q.error.message}
          <Button onClick={() => void q.refetch()}>Retry</Button>
        </div>
      )}
      {q.data && (
        <>
          <section aria-label="Bulk tokens section">
            <TitleBar title="Bulk Tokens">
              <CommandButton command="actors.createToken" args={{}} variant="primary">
                Create bulk token
              </CommandButton>
            </TitleBar>
            <BulkTokensTable rows={q.data.bulk.data} />
          </section>
          <section aria-label="Actors section">
            <TitleBar title="Registered Actors" />
            <ActorsTable rows={q.data.nodes.data} />
          </section>
        </>
      )}
      <CreateTokenModal />
      <InstallerModal />
      <RegisterPushModal />
    </div>
  );
}
