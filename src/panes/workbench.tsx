import { DockviewReact, themeDark, themeLight, type DockviewApi, type DockviewReadyEvent, type DockviewTheme } from 'dockview-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { Environment } from '@/api/contracts/session';
import type { Permission } from '@/api/contracts/permissions';
import { bindHotkeys } from '@/commands/hotkeys';
import { useCommandHotkeys } from '@/commands/command-hooks';
import { openPalette, openPaletteFor } from '@/commands/palette-store';
import { paneContexts } from '@/commands/pane-contexts';
import { commands } from '@/commands/registry';
import { confirmDialog } from '@/ui/confirm-store';
import { setDisplayTimeZone } from '@/ui/datetime';
import { flash, setFlashNoticeTime } from '@/ui/toasts';
import { DockController, PANE_COMPONENT, START_KIND, type UrlHistory } from './dock-controller';
import type { FeatureModule } from './feature-module';
import { prefetchWhenIdle, useIdleOnce } from './lazy';
import { LAZY_OVERLAYS, LazyConfirmHost, LazyPalette, LazyShortcutSheet, preloadPalette } from './lazy-hosts';
import { layoutKey, loadLayout, saveLayout, withoutViewState } from './layout-storage';
import { PaneHost } from './pane-host';
import { PaneTab } from './pane-tab';
import { WorkbenchContext } from './pane-context';
import { PaneRegistry } from './registry';
import { SPEC_PANES } from './spec-routes';
import { paneOpenCommands, workbenchCommands } from './workbench-commands';

const components = { [PANE_COMPONENT]: PaneHost };

function Watermark() {
  const [palette] = useCommandHotkeys(['palette.open']);
  return (
    <div className="flex h-full items-center justify-center text-muted">
      <div className="text-center">
        <div className="text-base">No panes are open.</div>
        <button type="button" className="mt-2 text-accent underline" onClick={() => openPalette()}>
          {palette ? `Press ${palette} to open the command palette` : 'Open the command palette'}
        </button>
      </div>
    </div>
  );
}

/** The features' modal hosts: not in the workbench's first frame, they mount (and load) once the browser is idle after it. */
function FeatureGlobals({ features }: { features: readonly FeatureModule[] }) {
  if (!useIdleOnce()) return null;
  return <Suspense fallback={null}>{features.flatMap((f) => (f.globals ?? []).map((G, i) => <G key={`${f.id}-${i}`} />))}</Suspense>;
}

export const LAYOUT_RESTORE_FAILED = 'The saved layout could not be restored, so the default layout is shown.';

export interface WorkbenchProps {
  env: Environment;
  features: readonly FeatureModule[];
  history: UrlHistory & { subscribe(cb: () => void): () => void };
  /** Shown at the right of the top bar (user menu etc.). */
  TopBarEnd?: ComponentType;
  /** More lazy components to fetch while idle (the top bar's menu). */
  extraPrefetch?: readonly unknown[];
}

/** The dockable workbench: panes, palette, hotkeys, and the URL kept in step with the focused pane. */
const NONE: readonly unknown[] = [];

export function Workbench({ env, features, history, TopBarEnd, extraPrefetch = NONE }: WorkbenchProps) {
  const queryClient = useQueryClient();
  // Every timestamp shows in the user's time zone (set before the panes render them).
  useMemo(() => setDisplayTimeZone(env.userTimeZone), [env.userTimeZone]);
  // MON-171: notice flashes of the monitors, actors and reporting screens last the user's flash notice time.
  useMemo(() => setFlashNoticeTime(env.preferences?.flash_notice_time), [env.preferences?.flash_notice_time]);
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  const panes = useMemo(() => {
    const registry = new PaneRegistry(SPEC_PANES);
    features.forEach((f) => f.panes?.forEach((p) => registry.build(p)));
    return registry;
  }, [features]);
  const controller = useMemo(
    () => new DockController(panes, history, queryClient, (permission) => env.user_rights.includes(permission)),
    [panes, history, queryClient, env.user_rights],
  );
  // The deep link's pane: its code and first calls start now, beside the dock's first layout, not after it.
  useState(() => controller.warmUrl(history.current()));
  const apiRef = useRef<DockviewApi | null>(null);
  const unloadSaver = useRef<(() => void) | null>(null);
  const storageKey = layoutKey(env.user.id);
  const viewStateOf = (kind: string) => panes.get(kind)?.viewState;

  // Commands: the workbench's own, one per pane kind, and every feature's.
  useEffect(() => {
    const permissions = new Set<Permission>(env.user_rights);
    const licensed = new Set(env.licensed_features);
    commands.setContextProvider(() => ({
      user: env.user,
      permissions,
      licensedFeatures: licensed,
      activePane: controller.activeRef(),
      dock: controller,
      queryClient,
      confirm: (message, opts) => confirmDialog(message, opts),
      pane(key) {
        return paneContexts.lookup(key, this.activePane);
      },
    }));
    commands.setErrorReporter((message) => flash('alert', message));
    const disposers = [
      commands.registerAll(workbenchCommands()),
      commands.registerAll(paneOpenCommands(panes.list())),
      ...features.map((f) => commands.registerAll(f.commands ?? [])),
    ];
    const unbind = bindHotkeys(commands, () => controller.activeRef()?.kind ?? null, { askArgs: (c) => openPaletteFor(c.id) });
    (window as unknown as { vigil?: unknown }).vigil = { commands, execute: commands.execute.bind(commands), openUrl: (u: string) => controller.openUrl(u) };
    return () => {
      unbind();
      disposers.forEach((d) => d());
      commands.setErrorReporter(null);
    };
  }, [env, panes, features, controller, queryClient]);

  useEffect(
    () => () => {
      if (unloadSaver.current) window.removeEventListener('beforeunload', unloadSaver.current);
    },
    [],
  );

  // In-app links open panes instead of reloading the page (plain clicks on same-origin links only).
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as HTMLElement | null)?.closest?.('a');
      if (!a || a.target || a.hasAttribute('download')) return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      e.preventDefault();
      controller.openUrl(`${url.pathname}${url.search}`);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [controller]);

  // Browser back/forward (and any navigation) open or focus the pane of the new URL.
  // Pane code is split per pane; fetch it ahead while idle so opening one rarely waits.
  // The palette and the top bar's menu first: they are a keystroke away.
  useEffect(
    () => prefetchWhenIdle([...LAZY_OVERLAYS, ...extraPrefetch, ...features.flatMap((f) => f.globals ?? []), ...panes.list().map((k) => k.component)]),
    [features, panes, extraPrefetch],
  );
  useEffect(() => history.subscribe(() => apiRef.current && controller.openUrl(history.current(), { exact: true })), [history, controller]);

  useEffect(() => {
    const observer = new MutationObserver(() => setDark(document.documentElement.classList.contains('dark')));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);

  const applyDefaultLayout = (api: DockviewApi) => {
    api.clear();
    controller.open({ kind: START_KIND, params: {} });
  };

  const onReady = (event: DockviewReadyEvent) => {
    const api = event.api;
    // Read the deep link first: restoring the layout moves the focus, and focus writes the URL.
    const deepLink = history.current();
    apiRef.current = api;
    controller.attach(api);
    controller.onLayoutReset = () => {
      applyDefaultLayout(api);
      flash('notice', 'The layout was reset to the default.');
    };
    controller.quietly(() => {
      const saved = loadLayout(storageKey);
      if (saved.status === 'ok') {
        try {
          // The deep link's pane comes back with the URL's params, not the saved ones (layoutWithUrl).
          api.fromJSON(controller.layoutWithUrl(saved.layout, deepLink));
          if (api.panels.some((p) => !(p.params as { kind?: unknown } | undefined)?.kind)) throw new Error('unknown panels');
        } catch {
          applyDefaultLayout(api);
          flash('info', LAYOUT_RESTORE_FAILED);
        }
      } else {
        if (saved.status === 'corrupt') flash('info', LAYOUT_RESTORE_FAILED);
        applyDefaultLayout(api);
      }
    });
    // A deep link wins over the restored focus.
    if (deepLink !== '/' || api.panels.length === 0) controller.openUrl(deepLink);
    else controller.syncUrl();
    let timer: ReturnType<typeof setTimeout> | undefined;
    api.onDidLayoutChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => saveLayout(storageKey, withoutViewState(api.toJSON(), viewStateOf)), 250);
    });
    // Save at once too, so a reload straight after a change keeps it.
    if (unloadSaver.current) window.removeEventListener('beforeunload', unloadSaver.current);
    unloadSaver.current = () => saveLayout(storageKey, withoutViewState(api.toJSON(), viewStateOf));
    window.addEventListener('beforeunload', unloadSaver.current);
  };

  const theme: DockviewTheme = { ...(dark ? themeDark : themeLight), className: `${(dark ? themeDark : themeLight).className} vigil-dock` };

  return (
    <WorkbenchContext.Provider value={{ panes, controller }}>
      <div className="flex h-full flex-col">
        <header className="flex h-9 shrink-0 items-center gap-3 border-b border-line bg-raised px-3">
          <span className="font-semibold tracking-wide text-accent">Vigil</span>
          <button
            type="button"
            onClick={() => openPalette()}
            onMouseEnter={preloadPalette}
            onFocus={preloadPalette}
            className="flex w-80 items-center justify-between rounded border border-line bg-surface px-2 py-0.5 text-left text-muted hover:border-accent"
            aria-label="Open command palette"
          >
            <span>Search commands…</span>
            <kbd className="font-mono text-2xs">Ctrl K</kbd>
          </button>
          <div className="flex-1" />
          {TopBarEnd && <TopBarEnd />}
        </header>
        <main className="min-h-0 flex-1">
          <DockviewReact
            components={components}
            onReady={onReady}
            theme={theme}
            watermarkComponent={Watermark}
            defaultTabComponent={PaneTab}
            getTabContextMenuItems={({ panel }) => [
              ...commands.forMenu('pane/tab').map((c) => ({
                label: c.title,
                action: () => {
                  panel.api.setActive();
                  void commands.execute(c.id, undefined, 'menu').catch(() => undefined);
                },
              })),
              'separator' as const,
              {
                label: 'Close Others',
                action: () => {
                  void (async () => {
                    for (const other of panel.group.panels.filter((p) => p !== panel)) await controller.requestClose(other.id);
                  })();
                },
              },
              'maximize' as const,
            ]}
          />
        </main>
      </div>
      <LazyPalette registry={commands} />
      <LazyShortcutSheet registry={commands} />
      <LazyConfirmHost />
      <FeatureGlobals features={features} />
    </WorkbenchContext.Provider>
  );
}
