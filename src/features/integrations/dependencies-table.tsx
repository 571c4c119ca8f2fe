/**
 * The integrations menu's actors on which dependencies can be installed (jobs-simulations-network-map.md
 * section 2, JOB-061, JOB-097): each actor's version and dependency state (NOT_INSTALLED, INSTALLING,
 * INSTALLED, FAILED; clicking Failed forces a version check), the Install Dependencies command per row,
 * and the programs the selected actor's last install found, in the generic table.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { DEPENDENCY_STATE_LABELS, dependencyState, isOpenTask, type DependencyActor } from '@/api/contracts/actor-dependencies';
import { CommandButton } from '@/commands/command-menu';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { dependencyActorsQueryKey, getDependencyActors } from './api';
import { clearInstallMarker, depsMarkers } from './deps-marker';
import { integrationsStore } from './store';

/** Polled this often while an actor is INSTALLING (the generic table's 5000 ms otherwise). */
const INSTALLING_POLL_MS = 2000;

function StateCell({ actor, installing }: { actor: DependencyActor; installing: boolean }) {
  const state = dependencyState(actor, installing);
  if (state === 'FAILED')
    return (
      <CommandButton command="integrations.checkActorVersion" args={{ actor: actor.id }} variant="danger" aria-label={`Failed: check the version of ${actor.name}`}>
        {DEPENDENCY_STATE_LABELS.FAILED}
      </CommandButton>
    );
  return <span data-state={state}>{DEPENDENCY_STATE_LABELS[state]}</span>;
}

function programsText(a: DependencyActor): string {
  const deps = a.install?.dependencies;
  if (!deps) return a.install && isOpenTask(a.install) ? 'Looking…' : 'Not checked yet';
  const missing = deps.filter((d) => !d.found).map((d) => d.program);
  return `${deps.length - missing.length} of ${deps.length} found${missing.length ? `; missing ${missing.join(', ')}` : ''}`;
}

function Report({ actor }: { actor: DependencyActor }) {
  const install = actor.install;
  if (!install) return <p className="text-xs text-muted">No dependency install has run on {actor.name} yet.</p>;
  return (
    <section aria-label={`Dependencies of ${actor.name}`} className="flex flex-col gap-1 text-xs">
      <p className={install.status === 'failed' ? 'text-red-400' : 'text-muted'}>{install.message ?? (isOpenTask(install) ? `Installing on ${actor.name}…` : '')}</p>
      {install.dependencies && (
        <ul className="flex flex-col gap-0.5">
          {install.dependencies.map((d) => (
            <li key={d.program} className="flex flex-wrap gap-x-2">
              <span className="font-mono">{d.program}</span>
              <span className={d.found ? 'text-green-400' : d.optional ? 'text-muted' : 'text-red-400'}>{d.found ? (d.installed_now ? 'installed now' : 'found') : d.optional ? 'missing (optional)' : 'missing'}</span>
              {d.version && <span className="text-muted">{d.version}</span>}
              <span className="text-muted">— {d.needed_for}</span>
              {d.error && <span className="text-red-400">{d.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function DependenciesTable() {
  const markers = useSnapshot(depsMarkers);
  const snap = useSnapshot(integrationsStore);
  const installing = (id: number) => markers.installing.includes(id) || snap.installRuns.includes(id);
  const query = useQuery({
    queryKey: dependencyActorsQueryKey,
    queryFn: getDependencyActors,
    refetchInterval: (q) => (q.state.data?.some((a) => installing(a.id) || isOpenTask(a.install)) ? INSTALLING_POLL_MS : false),
  });
  const actors = query.data;

  useEffect(() => {
    if (!actors) return;
    integrationsStore.dependencyActors = actors;
    // A marker left by a reload mid-install goes once that install has settled (no call of this page runs it).
    for (const id of depsMarkers.installing) {
      const a = actors.find((x) => x.id === id);
      if (!integrationsStore.installRuns.includes(id) && (!a || (a.install && !isOpenTask(a.install)))) clearInstallMarker(id);
    }
  }, [actors]);

  const columns: DataColumn<DependencyActor>[] = [
    { key: 'name', label: 'Actor', text: (a) => a.name, render: (a) => a.name },
    { key: 'status', label: 'Status', text: (a) => a.status, render: (a) => a.status },
    { key: 'version', label: 'Version', text: (a) => a.msi_service_version ?? 'Unknown', render: (a) => a.msi_service_version ?? 'Unknown' },
    { key: 'state', label: 'Dependencies', text: (a) => DEPENDENCY_STATE_LABELS[dependencyState(a, installing(a.id))], render: (a) => <StateCell actor={a} installing={installing(a.id)} /> },
    { key: 'programs', label: 'Programs', render: programsText },
    {
      key: 'install',
      label: 'Install',
      render: (a) => (
        <CommandButton command="integrations.installDependencies" args={{ actor: a.id }} disabled={dependencyState(a, installing(a.id)) === 'INSTALLING'} aria-label={`Install Dependencies on ${a.name}`} />
      ),
    },
  ];
  const selected = actors?.find((a) => a.id === snap.selectedActorId);

  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Actor dependencies</h3>
      {query.error && !actors ? (
        <p role="alert">{query.error.message}</p>
      ) : (
        <DataTable<DependencyActor>
          id="dependency-actors"
          label="Actor dependencies"
          columns={columns}
          rows={actors}
          rowKey={(a) => a.id}
          refetch={query.refetch}
          loading={<p className="text-muted">Loading actors…</p>}
          empty="No actor has registered with this director yet. Start one with a bulk token (Actors pane), then install its dependencies here."
          selectedKey={snap.selectedActorId}
          onSelect={(a) => (integrationsStore.selectedActorId = a.id)}
        />
      )}
      {selected && <Report actor={selected} />}
    </div>
  );
}
