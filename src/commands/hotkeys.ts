import { eventToHotkey } from './hotkey-format';
import { CommandError, type CommandRegistry } from './registry';
import type { AnyCommand } from './types';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('.cm-editor');
}

/** Whether the command runs without arguments, or its schema requires some (`count is required`). */
function missesArgs(registry: CommandRegistry, command: AnyCommand): boolean {
  if (!command.args) return false;
  try {
    registry.validateArgs(command.id, undefined);
    return false;
  } catch (e) {
    return e instanceof CommandError && e.kind === 'invalid-args';
  }
}

export interface HotkeyOptions {
  target?: Window;
  /** A hotkey of a command whose required arguments are missing asks for them here (the palette's form) instead of failing. */
  askArgs?: (command: AnyCommand) => void;
}

/**
 * One keydown listener for every command hotkey. While typing in a field only chords with mod or alt
 * fire, so plain letters keep working in inputs.
 */
export function bindHotkeys(registry: CommandRegistry, activePaneKind: () => string | null, { target = window, askArgs }: HotkeyOptions = {}): () => void {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return;
    const hotkey = eventToHotkey(e);
    if (!hotkey) return;
    const chord = /(^|\+)(mod|alt)\+/.test(hotkey);
    if (isTyping(e.target) && !chord) return;
    // A dialog or an open menu owns plain keys (arrows, letters): only chords reach the commands then.
    if (!chord && target.document.querySelector('[role="dialog"], [role="menu"]')) return;
    const command = registry.commandForHotkey(hotkey, activePaneKind());
    if (!command) return;
    const ctx = registry.context();
    if (command.when && !command.when(ctx)) return;
    e.preventDefault();
    e.stopPropagation();
    if (askArgs && missesArgs(registry, command)) return askArgs(command);
    void registry.execute(command.id, undefined, 'hotkey').catch(() => undefined);
  };
  target.addEventListener('keydown', onKeyDown, true);
  return () => target.removeEventListener('keydown', onKeyDown, true);
}
