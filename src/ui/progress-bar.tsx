/**
 * A thin progress bar whose fill moves with a CSS transition (the monitor editor's progress feedback
 * uses 350 ms, MON-176). Its value is announced as a progressbar with a label.
 */
export function ProgressBar({ value, label, transitionMs, className = '' }: { value: number; label: string; transitionMs: number; className?: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <span className={`block h-1 w-full overflow-hidden rounded bg-line/60 ${className}`} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
      <span className="block h-full bg-sky-400" style={{ width: `${pct}%`, transition: `width ${transitionMs}ms ease-out` }} />
    </span>
  );
}
