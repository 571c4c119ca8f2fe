import type { CommandContext } from './types';

/**
 * Entity arguments are searchable pick lists, never raw ids: a command's argument schema names where
 * its choices come from with `.meta(pickFrom(source))`, and the palette's argument form shows a
 * combobox that searches the source (`pick-field.tsx`). Scripts and the CLI still pass the ids.
 */
export interface PickOption {
  value: number;
  label: string;
  /** A second line (a schedule, a VID). */
  detail?: string;
}

export interface PickSource {
  /** What is picked, for the placeholder and the empty text ('monitor' -> 'Search monitors…'). */
  noun: string;
  /**
   * The options matching `query`. `chosen` holds what the form has chosen so far in its other pick
   * lists, by argument name: a list that depends on another (the pending files of the chosen Action,
   * the conversations of the chosen upload) reads it; the form searches again when it changes.
   */
  search(query: string, signal: AbortSignal, chosen: ChosenPicks): Promise<PickOption[]>;
  /**
   * The entity the command acts on when none is chosen (the selected row; the selected rows of a
   * multiple pick), chosen at first. A source with `current` names the entity a command acts on: the
   * command falls back to the focused one only when run without the palette's form (a hotkey, a menu, a
   * script), so the form asks for a choice rather than run into "Select … first".
   */
  current?(ctx: CommandContext): PickOption | readonly PickOption[] | null;
}

/** The choices a source makes at first in this context (none, one, or a multiple pick's several). */
export function currentPicks(source: PickSource, ctx: CommandContext): PickOption[] {
  const c = source.current?.(ctx);
  if (!c) return [];
  return Array.isArray(c) ? [...(c as readonly PickOption[])] : [c as PickOption];
}

/** What a form has chosen in its pick lists, by argument name. */
export type ChosenPicks = Readonly<Record<string, readonly PickOption[]>>;

/** The value chosen for `name` in another pick list of the form, if one is. */
export const chosenValue = (chosen: ChosenPicks, name: string): number | undefined => chosen[name]?.[0]?.value;

interface PickMeta {
  pick: PickSource;
}

/**
 * An argument only scripts give (`vid=`, `name=`: another way to name the entity a pick list chooses
 * in the palette): the palette's argument form leaves it out.
 */
export const scriptOnly = (): { scriptOnly: true } => ({ scriptOnly: true });
export const isScriptOnly = (meta: unknown): boolean => (meta as { scriptOnly?: boolean } | undefined)?.scriptOnly === true;

export const pickFrom = (source: PickSource): PickMeta => ({ pick: source });

export function pickSourceOf(meta: unknown): PickSource | null {
  const p = (meta as Partial<PickMeta> | undefined)?.pick;
  return p && typeof p.search === 'function' ? p : null;
}
