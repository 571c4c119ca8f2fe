import { Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { paletteStore, shortcutSheet } from '@/commands/palette-store';
import type { CommandRegistry } from '@/commands/registry';
import { confirmStore } from '@/ui/confirm-store';
import { lazyComponent, lazyGlobal } from './lazy';

// The workbench's overlays and menus are loaded on first use (their UI library, headless UI, and the
// palette's virtual list are not in the first download); `prefetchWhenIdle` and hovering fetch them ahead.
const Palette = lazyComponent(() => import('@/commands/palette'), 'CommandPalette');
const Confirm = lazyGlobal(() => import('@/ui/confirm'), 'ConfirmHost');
const Shortcuts = lazyComponent<{ registry: CommandRegistry }, 'ShortcutSheet'>(() => import('@/commands/shortcut-sheet'), 'ShortcutSheet');

/** The overlay components, for `prefetchWhenIdle`. */
export const LAZY_OVERLAYS = [Palette, Confirm, Shortcuts] as const;

/** Fetches the palette's code ahead (hover or focus on the top bar's search button). */
export const preloadPalette = () => void Palette.preload().catch(() => undefined);

/** Mounted once asked for; kept mounted afterwards so closing animates like before. */
function useOnceTrue(now: boolean): boolean {
  const [ever, setEver] = useState(now);
  useEffect(() => {
    if (now) setEver(true);
  }, [now]);
  return ever || now;
}

function LoadingOverlay({ what }: { what: string }) {
  return (
    <div className="fixed inset-0 z-[1060] flex items-start justify-center bg-black/40 pt-[10vh]">
      <div role="status" className="rounded-lg border border-line bg-panel px-4 py-3 text-muted shadow-2xl">
        Loading {what}…
      </div>
    </div>
  );
}

/** The command palette, loaded the first time it opens (with a visible loading state) or ahead while idle. */
export function LazyPalette({ registry }: { registry: CommandRegistry }) {
  const { open } = useSnapshot(paletteStore);
  if (!useOnceTrue(open)) return null;
  return (
    <Suspense fallback={open ? <LoadingOverlay what="the command palette" /> : null}>
      <Palette registry={registry} />
    </Suspense>
  );
}

/** The confirmation dialog, loaded the first time a command asks. */
export function LazyConfirmHost() {
  const { pending } = useSnapshot(confirmStore);
  if (!useOnceTrue(!!pending)) return null;
  return (
    <Suspense fallback={pending ? <LoadingOverlay what="the question" /> : null}>
      <Confirm />
    </Suspense>
  );
}

/** The keyboard shortcut sheet (`?`), loaded the first time it opens. */
export function LazyShortcutSheet({ registry }: { registry: CommandRegistry }) {
  const { open } = useSnapshot(shortcutSheet);
  if (!useOnceTrue(open)) return null;
  return (
    <Suspense fallback={open ? <LoadingOverlay what="the shortcuts" /> : null}>
      <Shortcuts registry={registry} />
    </Suspense>
  );
}
