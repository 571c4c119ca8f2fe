import * as yup from 'yup';
import { normalizeHotkey } from './hotkey-format';
import { commandState, menuItems, placementsOf, type CommandState, type MenuItemModel } from './menus';
import { paneContexts } from './pane-contexts';
import type { AnyCommand, Command, CommandContext, CommandSource, ExecuteOptions } from './types';

export class CommandError extends Error {
  constructor(
    message: string,
    public readonly commandId: string,
    public readonly kind: 'unknown' | 'unavailable' | 'disabled' | 'invalid-args' | 'failed',
  ) {
    super(message);
  }
}

export type ExecuteListener = (e: { id: string; source: CommandSource; ok: boolean; error?: unknown }) => void;

const INTERACTIVE: ReadonlySet<CommandSource> = new Set(['palette', 'hotkey', 'menu', 'button', 'url']);

/**
 * The single registry of commands. Palette, hotkeys, menus, scripts and tests all read it, and
 * `execute` is the one choke point: it checks `when` and `enabled`, validates arguments, runs.
 */
export class CommandRegistry {
  private commands = new Map<string, AnyCommand>();
  /** `${context}:${hotkey}` -> command id */
  private hotkeys = new Map<string, string>();
  private listeners = new Set<() => void>();
  private executeListeners = new Set<ExecuteListener>();
  private version = 0;
  private contextProvider: () => CommandContext;
  private errorReporter: ((message: string) => void) | null = null;

  constructor(contextProvider?: () => CommandContext) {
    this.contextProvider = contextProvider ?? (() => emptyContext());
  }

  setContextProvider(provider: () => CommandContext): void {
    this.contextProvider = provider;
  }

  /** Shows execution errors of interactive sources (toasts in the workbench). */
  setErrorReporter(reporter: ((message: string) => void) | null): void {
    this.errorReporter = reporter;
  }

  context(): CommandContext {
    return this.contextProvider();
  }

  /** The context of one execution: a script's signal, or the pane a menu or button lives in. */
  contextWith(opts: ExecuteOptions = {}, source?: CommandSource): CommandContext {
    const ctx = this.contextProvider();
    if (!opts.signal && !opts.pane && !opts.dock && !source) return ctx;
    return {
      ...ctx,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.pane ? { activePane: opts.pane } : {}),
      ...(opts.dock && ctx.dock ? { dock: opts.dock } : {}),
      ...(source ? { source } : {}),
    };
  }

  /** Registers one command; throws on a duplicate id or a hotkey already bound in the same context. */
  register<A, R>(command: Command<A, R>): () => void {
    if (this.commands.has(command.id)) throw new Error(`Command "${command.id}" is already registered`);
    const contexts = Array.isArray(command.hotkeyContext) ? command.hotkeyContext : [command.hotkeyContext ?? 'global'];
    const keys = hotkeysOf(command).flatMap((h) => contexts.map((c) => `${c}:${h}`));
    for (const k of keys) {
      const other = this.hotkeys.get(k);
      if (other) throw new Error(`Hotkey conflict: "${k}" is bound to both "${other}" and "${command.id}"`);
    }
    this.commands.set(command.id, command as AnyCommand);
    for (const k of keys) this.hotkeys.set(k, command.id);
    this.changed();
    return () => {
      if (this.commands.get(command.id) !== (command as AnyCommand)) return;
      this.commands.delete(command.id);
      for (const k of keys) this.hotkeys.delete(k);
      this.changed();
    };
  }

  registerAll(commands: readonly AnyCommand[]): () => void {
    const disposers: (() => void)[] = [];
    try {
      for (const c of commands) disposers.push(this.register(c));
    } catch (e) {
      disposers.forEach((d) => d());
      throw e;
    }
    return () => disposers.forEach((d) => d());
  }

  get(id: string): AnyCommand | undefined {
    return this.commands.get(id);
  }

  list(): AnyCommand[] {
    return [...this.commands.values()];
  }

  /** Commands visible in this context (their `when` holds). */
  visible(ctx: CommandContext = this.context()): AnyCommand[] {
    return this.list().filter((c) => !c.when || c.when(ctx));
  }

  /** Visible commands of one menu, in registration order. */
  forMenu(menuId: string, ctx: CommandContext = this.context()): AnyCommand[] {
    return this.visible(ctx).filter((c) => placementsOf(c).some((p) => p.menu === menuId));
  }

  /** The items of one menu for the menu's args: label, hotkey hint, args, disabled state and reason, groups. */
  menuItems(menuId: string, menuArgs?: unknown, ctx: CommandContext = this.context()): MenuItemModel[] {
    return menuItems(this.list(), menuId, menuArgs, ctx);
  }

  /** Whether a command is visible and runnable with these args (what a button shows). */
  state(id: string, args?: unknown, ctx: CommandContext = this.context()): CommandState {
    const command = this.commands.get(id);
    return command ? commandState(command, ctx, args) : { visible: false, disabled: true, reason: `Unknown command "${id}"` };
  }

  /** Starts what the command will need (its `prefetch`) when a button of it is hovered or focused; never throws. */
  prefetch(id: string, args?: unknown, ctx: CommandContext = this.context()): void {
    const command = this.commands.get(id);
    if (!command?.prefetch || !commandState(command, ctx, args).visible) return;
    try {
      command.prefetch(args as never, ctx);
    } catch {
      // Only a head start: the command itself reports what goes wrong.
    }
  }

  /** The command bound to a hotkey: the focused pane's context wins over global. */
  commandForHotkey(hotkey: string, paneKind: string | null): AnyCommand | undefined {
    const id = (paneKind && this.hotkeys.get(`${paneKind}:${hotkey}`)) || this.hotkeys.get(`global:${hotkey}`);
    return id ? this.commands.get(id) : undefined;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onExecute(listener: ExecuteListener): () => void {
    this.executeListeners.add(listener);
    return () => this.executeListeners.delete(listener);
  }

  getVersion(): number {
    return this.version;
  }

  /** Validates arguments against the command's schema without running it (dry runs, prompts). */
  validateArgs(id: string, args: unknown): unknown {
    const command = this.commands.get(id);
    if (!command) throw new CommandError(`Unknown command "${id}"`, id, 'unknown');
    if (!command.args) return undefined;
    try {
      return command.args.validateSync(args ?? {}, { abortEarly: false });
    } catch (e) {
      if (e instanceof yup.ValidationError) throw new CommandError(`${command.title}: ${e.errors.join(' ')}`, id, 'invalid-args');
      throw e;
    }
  }

  async execute<R = unknown>(id: string, args?: unknown, source: CommandSource = 'test', opts: ExecuteOptions = {}): Promise<R> {
    try {
      const command = this.commands.get(id);
      if (!command) throw new CommandError(`Unknown command "${id}"`, id, 'unknown');
      const ctx = this.contextWith(opts, source);
      // The arguments as given (not yet validated): a command on one job applies anywhere once it names the job.
      if (command.when && !command.when(ctx, args)) throw new CommandError(`"${command.title}" is not available to you here`, id, 'unavailable');
      const validArgs = this.validateArgs(id, args);
      if (command.when && !command.when(ctx, validArgs)) throw new CommandError(`"${command.title}" is not available to you here`, id, 'unavailable');
      const blocked = command.blockedReason?.(ctx, validArgs);
      if (blocked) throw new CommandError(blocked, id, 'disabled');
      if (command.enabled && !command.enabled(ctx, validArgs)) throw new CommandError(`"${command.title}" cannot run right now`, id, 'disabled');
      const result = (await command.run(validArgs, ctx)) as R;
      this.executeListeners.forEach((l) => l({ id, source, ok: true }));
      return result;
    } catch (error) {
      this.executeListeners.forEach((l) => l({ id, source, ok: false, error }));
      if (INTERACTIVE.has(source) && this.errorReporter) this.errorReporter(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  private changed(): void {
    this.version++;
    this.listeners.forEach((l) => l());
  }
}

export function hotkeysOf(command: Pick<AnyCommand, 'hotkey'>): string[] {
  if (!command.hotkey) return [];
  return (Array.isArray(command.hotkey) ? command.hotkey : [command.hotkey]).map(normalizeHotkey);
}

export function emptyContext(): CommandContext {
  return {
    user: null,
    permissions: new Set(),
    licensedFeatures: new Set(),
    activePane: null,
    dock: null,
    queryClient: null,
    confirm: async () => false,
    pane(key) {
      return paneContexts.lookup(key, this.activePane);
    },
  };
}

export function defineCommand<A = void, R = unknown>(command: Command<A, R>): Command<A, R> {
  return command;
}

/** The workbench's registry. */
export const commands = new CommandRegistry();
