/**
 * A titled block of a pane, labelled by its heading (so it is a named region for assistive tech and
 * for tests). Two looks: `plain` (a small upper-case heading over a rule, used by the read-only
 * panes: library detail, preview, simulations) and `card` (a bordered panel, used by forms), which
 * may be `collapsible` and then keeps its own open state.
 */
import { useId, useState, type ReactNode } from 'react';

interface SectionProps {
  title: ReactNode;
  children: ReactNode;
  /** Buttons on the heading's line. */
  actions?: ReactNode;
  /** The heading's id (one is made up when not given). */
  id?: string;
  variant?: 'plain' | 'card';
  /** card only: the title is a button that shows and hides the body. */
  collapsible?: boolean;
  defaultOpen?: boolean;
}

export function Section({ title, children, actions, id, variant = 'plain', collapsible = false, defaultOpen = true }: SectionProps) {
  const made = useId();
  const titleId = id ?? `${made}-title`;
  const bodyId = `${made}-body`;
  const [open, setOpen] = useState(defaultOpen);
  if (variant === 'plain') {
    return (
      <section className="flex flex-col gap-1.5" aria-labelledby={titleId}>
        <div className="flex items-center justify-between gap-2 border-b border-line pb-1">
          <h3 id={titleId} className="text-2xs font-semibold tracking-wide text-muted uppercase">
            {title}
          </h3>
          {actions}
        </div>
        {children}
      </section>
    );
  }
  return (
    <section className="rounded border border-line bg-panel" aria-labelledby={titleId}>
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-1.5">
        {collapsible ? (
          <button type="button" id={titleId} aria-expanded={open} aria-controls={bodyId} className="flex items-center gap-1.5 text-sm font-semibold" onClick={() => setOpen(!open)}>
            <span aria-hidden="true" className="inline-block w-3 text-muted">
              {open ? '▾' : '▸'}
            </span>
            {title}
          </button>
        ) : (
          <h3 id={titleId} className="text-sm font-semibold">
            {title}
          </h3>
        )}
        {actions}
      </div>
      {open && (
        <div id={bodyId} className="flex flex-col gap-3 p-3">
          {children}
        </div>
      )}
    </section>
  );
}
