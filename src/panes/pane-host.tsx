import { Suspense, useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { IDockviewPanelProps } from 'dockview-react';
import { useCommandHotkeys } from '@/commands/command-hooks';
import { commands } from '@/commands/registry';
import { ErrorBoundary } from '@/ui/error-boundary';
import { NOT_FOUND_KIND, START_KIND, type PanelParams } from './dock-controller';
import { useWorkbench } from './pane-context';
import { useLoaded } from './lazy';
import { StartPane } from './start-pane';
import type { PaneParams } from './types';
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

const PANE_LOADING = <div className="p-4 text-muted">Loading…</div>;

/** The one dockview component: looks up the pane kind and renders it, or says it is not built. */
export function PaneHost(props: IDockviewPanelProps<PanelParams>) {
  const { panes, controller } = useWorkbench();
  const { kind: kindId, params } = props.params;
  const queryClient = useQueryClient();
  const panelId = props.api.id;
  const setParams = useCallback((next: PaneParams, opts?: { replace?: boolean }) => controller.updateParams(panelId, next, opts), [controller, panelId]);
  const instance = useMemo(() => ({ id: panelId, kind: kindId, params }), [panelId, kindId, params]);
  const kind = kindId === START_KIND || kindId === NOT_FOUND_KIND ? undefined : panes.get(kindId);
  const allowed = !kind?.permission || commands.context().permissions.has(kind.permission);
  // The pane's calls start now, beside the download of its code (not once it has rendered).
  useMemo(() => allowed && kind?.prefetch?.(params, queryClient), [allowed, kind, params, queryClient]);
  // Its code arrived: render it (not a Suspense retry, which React reveals up to 300 ms late).
  const loaded = useLoaded(allowed ? kind?.component : undefined);
  let content;
  if (kindId === START_KIND) content = <StartPane />;
  else if (kindId === NOT_FOUND_KIND) content = <NotFoundPane path={params.path ?? ''} />;
  else {
    const Component = kind?.component;
    const title = controller.titleFor({ kind: kindId, params });
    if (!allowed) content = <NoPermissionPane title={title} />;
    else if (!Component) content = <NotBuiltPane title={title} url={controller.urlFor({ kind: kindId, params })} />;
    else content = loaded ? <Component params={params} setParams={setParams} /> : PANE_LOADING;
  }
  return (
    <div className="h-full overflow-auto bg-panel text-ink" data-pane-kind={kindId}>
      <PaneInstanceContext.Provider value={instance}>
        <ErrorBoundary>
          <Suspense fallback={PANE_LOADING}>{content}</Suspense>
        </ErrorBoundary>
      </PaneInstanceContext.Provider>
    </div>
  );
}
