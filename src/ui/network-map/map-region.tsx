import type { KeyboardEvent, ReactNode, Ref } from 'react';

/**
 * The keyboard region around a map canvas: one focusable "application" (arrows and Enter are the
 * map's own keys), named `label` and described by its status line `describedBy`. The network map pane,
 * the Select Nodes map and the Monitor Stats map use it.
 */
export function MapRegion({
  label,
  describedBy,
  onKeyDown,
  ref,
  className = 'min-h-0',
  children,
}: {
  label: string;
  describedBy: string;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  ref?: Ref<HTMLDivElement>;
  /** Its height in the layout (Tailwind classes); by default it takes what its flex parent gives. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      ref={ref}
      role="application"
      aria-label={label}
      aria-roledescription="network map"
      aria-describedby={describedBy}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={`relative flex-1 overflow-hidden rounded-md border border-line focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/60 ${className}`}
    >
      {children}
    </div>
  );
}
