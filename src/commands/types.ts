import type * as yup from 'yup';
import type { QueryClient } from '@tanstack/react-query';
import type { Permission } from '@/api/contracts/permissions';
import type { SessionUser } from '@/api/contracts/session';
import type { MenuPlacement } from './menus';
import type { PaneContextKey } from './pane-contexts';
import type { ConfirmWording } from '@/ui/confirm';

/** Where a command was started from; errors are shown as toasts only for interactive sources. */
/** 'form': a form's submit, which shows a failure in the form itself (so no toast repeats it). */
export type CommandSource = 'palette' | 'hotkey' | 'menu' | 'button' | 'form' | 'script' | 'test' | 'url';

/** What the workbench offers commands; a headless runner provides the same without `dock`. */
export interface DockControl {
  openUrl(url: string): void;
  /** Opens the pane of a URL in a new group beside the focused pane (or focuses it when already open). */
  openBeside?(url: string): void;
  focusNext(step: 1 | -1): void;
  moveActive(direction: 'left' | 'right'): void;
  /** Closes the focused pane (a pane may first ask, e.g. about unsaved changes); fails when it may not be closed. */
  closeActive(): void | Promise<unknown>;
  resetLayout(): void;
  /** Fetches the code and first calls of the pane a URL opens, ahead of opening it (hover of a button). */
  warmUrl?(url: string): void;
}


export interface CommandContext {
  user: SessionUser | null;
  permissions: ReadonlySet<Permission>;
  licensedFeatures: ReadonlySet<string>;
  /** The focused pane's kind and params (and its dock id), when a workbench is present. */
  activePane: { kind: string; params: Record<string, string>; id?: string } | null;
  dock: DockControl | null;
  queryClient: QueryClient | null;
  /** Asks the user (a script run answers itself); both buttons name their action. */
  confirm(message: string, opts: ConfirmWording): Promise<boolean>;
  /** Where this execution was started from (palette, hotkey, script…), when known. */
  source?: CommandSource;
  /** A script run's signal: a command that waits (polls, sleeps) stops waiting when it aborts. */
  signal?: AbortSignal;
  /**
   * The context object the focused pane registered under `key` (see `src/commands/pane-contexts.ts` and
   * `usePaneContext` in `src/panes`), or undefined when the focused pane offers none. Call it as a method.
   */
  pane<T>(key: PaneContextKey<T>): T | undefined;
}

/** What a caller of `execute` may add to the context of one execution. */
export interface ExecuteOptions {
  signal?: AbortSignal;
  /** The dock this execution acts on instead of the workbench's (a script keeps its own pane in place). */
  dock?: DockControl;
  /** The pane the command acts on instead of the focused one (a menu or button rendered inside that pane). */
  pane?: CommandContext['activePane'];
}

export interface Command<A = void, R = unknown> {
  id: `${string}.${string}`;
  title: string;
  category: string;
  keywords?: string[];
  /** 'mod+k', 'alt+shift+]': shown in the palette from this same field. */
  hotkey?: string | string[];
  /**
   * Menus that list this command: a menu id of `MENUS` (src/commands/menus.ts), e.g. 'pane/tab', or a
   * placement `{ menu, group, order, title, args, when, blockedReason }` built with `inMenu()`.
   */
  menus?: readonly (string | MenuPlacement)[];
  /** A short label for `<CommandButton>` (default: the title). */
  buttonLabel?: string;
  /** Hotkeys of a pane kind fire only while that pane kind is focused (one kind or several); default 'global'. */
  hotkeyContext?: string | string[];
  /** Needs the workbench (opens panes, moves focus): refused by a terminal runner. */
  needsWorkbench?: boolean;
  /** Visible and runnable (permissions, focus). Menus and buttons hide the command when it fails. */
  when?(ctx: CommandContext, args?: A): boolean;
  /** Runnable right now; menus and buttons show the command disabled when it fails. */
  enabled?(ctx: CommandContext, args?: A): boolean;
  /** Why the command cannot run with these arguments (shown as the disabled item's tooltip), or null. */
  blockedReason?(ctx: CommandContext, args?: A): string | null;
  args?: yup.Schema<A>;
  /**
   * Fetched ahead while a button or menu item of the command is hovered or focused: the code and first
   * calls of the pane it opens (`ctx.dock.warmUrl`), so the click rarely waits. Cheap and idempotent.
   */
  prefetch?(args: A | undefined, ctx: CommandContext): void;
  run(args: A, ctx: CommandContext): R | Promise<R>;
}

// The registry stores commands of every argument type side by side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list needs the widest argument type
export type AnyCommand = Command<any, unknown>;
