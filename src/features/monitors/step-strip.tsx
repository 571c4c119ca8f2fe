import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { STEP_MARKER_WIDTH } from '@/api/contracts/monitors';
import type { FlatStep } from './editor-state';

export interface MarkerState {
  hasError: boolean;
  failed: boolean;
}

/**
 * MON-010: one numbered marker per action ('Step N: action name'), as many per row as the width holds
 * at 68 px each; the first marker of a row is an end cap. Arrows move the focus, Enter opens the step.
 */
export function StepStrip({ steps, active, focusTo, onOpen, state }: { steps: FlatStep[]; active: number; focusTo: number | null; onOpen(index: number): void; state(s: FlatStep): MarkerState }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const [focused, setFocused] = useState(active);
  useEffect(() => setFocused(active), [active]);
  useEffect(() => {
    if (focusTo !== null) setFocused(focusTo);
  }, [focusTo]);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const perRow = Math.max(1, Math.floor(width / STEP_MARKER_WIDTH));
  const activeGroup = steps[active]?.group;
  const onKey = (e: KeyboardEvent) => {
    const move = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: perRow, ArrowUp: -perRow, Home: -steps.length, End: steps.length }[e.key];
    if (move !== undefined) {
      e.preventDefault();
      setFocused((f) => Math.max(0, Math.min(steps.length - 1, f + move)));
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpen(focused);
    }
  };
  const rows: FlatStep[][] = [];
  for (let i = 0; i < steps.length; i += perRow) rows.push(steps.slice(i, i + perRow));
  return (
    <div ref={ref} role="listbox" aria-label="Steps" tabIndex={0} onKeyDown={onKey} aria-activedescendant={`step-marker-${focused}`} className="flex flex-col gap-1 rounded border border-line p-2 outline-none focus-visible:ring-2 focus-visible:ring-accent/60" data-per-row={perRow}>
      {rows.map((row, ri) => (
        <div key={ri} className="flex">
          {row.map((s, i) => {
            const st = state(s);
            const classes = [
              'step-marker',
              i === 0 && 'end-cap',
              s.index === active && 'active',
              s.index === focused && 'focused',
              s.group === activeGroup && 'in-active-group',
              s.groupStart && 'group-start',
              s.groupEnd && 'group-end',
              st.hasError && 'has-error',
              st.failed && 'failed',
            ].filter(Boolean);
            return (
              <div
                key={s.index}
                id={`step-marker-${s.index}`}
                role="option"
                aria-selected={s.index === active}
                title={`Step ${s.index + 1}: ${s.name}`}
                aria-label={`Step ${s.index + 1}: ${s.name}`}
                data-state={classes.join(' ')}
                onClick={() => onOpen(s.index)}
                style={{ width: STEP_MARKER_WIDTH }}
                className={`relative flex h-9 shrink-0 cursor-pointer items-center justify-center ${s.groupStart ? 'pl-1' : ''} ${s.groupEnd ? 'pr-1' : ''}`}
              >
                <span aria-hidden className={`absolute top-1/2 h-0.5 -translate-y-1/2 ${i === 0 ? 'left-1/2 right-0' : 'left-0 right-0'} ${s.group === activeGroup ? 'bg-accent/60' : 'bg-line'}`} />
                <span
                  className={`relative z-10 flex h-7 w-7 items-center justify-center rounded-full border text-xs font-semibold ${
                    st.hasError ? 'border-red-500 bg-red-500/20 text-red-200' : st.failed ? 'border-red-400 bg-red-900/60 text-red-100' : s.index === active ? 'border-accent bg-accent text-slate-950' : 'border-line bg-raised'
                  } ${s.index === focused ? 'ring-2 ring-accent/70' : ''} ${s.groupStart ? 'rounded-l-md' : ''}`}
                >
                  {s.index + 1}
                </span>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
