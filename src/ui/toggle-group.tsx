import { createContext, useContext, type ReactNode } from 'react';

/**
 * A group of toggle buttons over a set of values (the day-of-week picker's days): each ToggleItem is a
 * button with aria-pressed, its state and its click read from the group around it. A ToggleItem
 * outside a ToggleGroup is a programming error and throws the spec's text (MON-156).
 */
interface ToggleGroupState {
  isOn(value: string): boolean;
  toggle(value: string): void;
  disabled: boolean;
}

const ToggleGroupContext = createContext<ToggleGroupState | null>(null);

/** MON-156: what a ToggleItem outside a ToggleGroup throws. */
export const TOGGLE_ITEM_OUTSIDE_GROUP = 'ToggleItem must be used within a Provider';

export function ToggleGroup<T extends string>({ label, value, onChange, disabled = false, children }: { label: string; value: readonly T[]; onChange(next: T[]): void; disabled?: boolean; children: ReactNode }) {
  const has = (v: string): v is T => (value as readonly string[]).includes(v);
  const state: ToggleGroupState = {
    isOn: has,
    // An item's value is one of the group's values (its children are built from them).
    toggle: (v) => onChange(has(v) ? value.filter((x) => x !== v) : [...value, v as T]),
    disabled,
  };
  return (
    <div role="group" aria-label={label} className="flex gap-1">
      <ToggleGroupContext.Provider value={state}>{children}</ToggleGroupContext.Provider>
    </div>
  );
}

/** `label` names the button (aria-label and tooltip); with `title` alone its text is its name and `title` its tooltip. */
export function ToggleItem({ value, label, title, children }: { value: string; label?: string; title?: string; children: ReactNode }) {
  const group = useContext(ToggleGroupContext);
  if (!group) throw new Error(TOGGLE_ITEM_OUTSIDE_GROUP);
  const on = group.isOn(value);
  return (
    <button
      type="button"
      disabled={group.disabled}
      aria-pressed={on}
      aria-label={label}
      title={label ?? title}
      className={`h-7 w-8 rounded border text-xs ${on ? 'border-accent bg-accent text-slate-950' : 'border-line bg-surface text-ink'}`}
      onClick={() => group.toggle(value)}
    >
      {children}
    </button>
  );
}
