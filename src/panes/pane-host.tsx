import { Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import type { IDockviewPanelProps } from 'dockview-react';
import { useCommandHotkeys } from '@/commands/command-hooks';
import { commands } from '@/commands/registry';
import { ErrorBoundary } from '@/ui/error-boundary';
import { NOT_FOUND_KIND, START_KIND, type PanelParams } from './dock-controller';
import { useWorkbench } from './pane-context';
import { StartPane } from './start-pane';
import type { PaneParams, PaneProps } from './types';
import { isLazy } from './lazy';
import { PaneInstanceContext } from '@/commands/pane-instance';

function NotBuiltPane({ title, url }: { title: string; url: string }) {
  return (
    <div className="p-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 text-muted" role="status">
        This pane is not built yet.
      </p>
      <p className="mt-1 text-2xs text-muted">
        The specification names <code className="font-mono">{url}</code>; its feature has not landed in this version of Vigil.
      </p>
    </div>
  );
}

function NoPermissionPane({ title }: { title: string }) {
  return (
    <div className="p-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 text-muted" role="alert">
        You don't have permission to open {title}.
      </p>
      <p className="mt-1 text-2xs text-muted">Ask an administrator for a role that allows it.</p>
    </div>
  );
}

function NotFoundPane({ path }: { path: string }) {
  const [palette] = useCommandHotkeys(['palette.open']);
  return (
    <div className="p-6">
      <h2 className="text-lg font-semibold">Not Found</h2>
      <p className="mt-2 text-muted" role="status">
        Nothing in Vigil lives at <code className="font-mono">{path}</code>. {palette ? `Press ${palette}` : 'Open the command palette'} to find what you need.
      </p>
    </div>
  );
}

const LOADING = <div className="p-4 text-muted">Loading…</div>;

/**
 * A lazy pane whose code is still on its way shows "Loading…" until it arrives and then renders the
 * component directly: suspending would hold the pane back (React reveals a suspended boundary no sooner
 * than 300 ms after its fallback) when the code is usually there within milliseconds.
 */
function LoadedPane({ Component, params, setParams }: PaneProps & { Component: ComponentType<PaneProps> }) {
  const lazy = isLazy(Component) ? Component : null;
  const [ready, setReady] = useState(() => !lazy?.loaded || lazy.loaded());
  useEffect(() => {
    if (ready || !lazy) return;
    let live = true;
    // A failed download renders the component anyway: its own load fails again into the error boundary.
    const done = () => live && setReady(true);
    lazy.preload().then(done, done);
    return () => {
      live = false;
    };
  }, [ready, lazy]);
  return ready ? <Component params={params} setParams={setParams} /> : LOADING;
}

/** The one dockview component: looks up the pane kind and renders it, or says it is not built. */
export function PaneHost(props: IDockviewPanelProps<PanelParams>) {
  const { panes, controller } = useWorkbench();
  const { kind: kindId, params } = props.params;
  const panelId = props.api.id;
  const setParams = useCallback((next: PaneParams, opts?: { replace?: boolean }) => controller.updateParams(panelId, next, opts), [controller, panelId]);
  const instance = useMemo(() => ({ id: panelId, kind: kindId, params }), [panelId, kindId, params]);
  let content;
  if (kindId === START_KIND) content = <StartPane />;
  else if (kindId === NOT_FOUND_KIND) content = <NotFoundPane path={params.path ?? ''} />;
  else {
    const kind = panes.get(kindId);
    const Component = kind?.component;
    const title = controller.titleFor({ kind: kindId, params });
    if (kind?.permission && !commands.context().permissions.has(kind.permission)) content = <NoPermissionPane title={title} />;
    else content = Component ? (
      <LoadedPane Component={Component} params={params} setParams={setParams} />
    ) : (
      <NotBuiltPane title={title} url={controller.urlFor({ kind: kindId, params })} />
    );
  }
  return (
    <div className="h-full overflow-auto bg-panel text-ink" data-pane-kind={kindId}>
      <PaneInstanceContext.Provider value={instance}>
        <ErrorBoundary>
          <Suspense fallback={LOADING}>{content}</Suspense>
        </ErrorBoundary>
      </PaneInstanceContext.Provider>
    </div>
  );
}
