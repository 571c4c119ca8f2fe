import { useState } from 'react';
import type { ActionSummaryEntry } from '@/api/contracts/monitors';
import type { FlatStep } from './editor-state';

export interface SummaryEntry {
  /** The step index, or null for the two bookends (definition and summary). */
  step: FlatStep | null;
  hasError: boolean;
  failed: boolean;
  /** MON-040: the step's summary entry (absent on the bookends). */
  summary?: ActionSummaryEntry;
}

/**
 * MON-013, MON-082: the summary's group sections (expanded at first) of their actions; the entry list
 * starts and ends with bookends (the definition and the summary itself), which are skipped; a new
 * group begins at each entry flagged group start. Click jumps to the step, hover focuses it.
 */
/** One selected expected event of a step, for the summary's selected-events table. */
export interface SelectedEventEntry {
  step: number;
  action: string;
  description: string;
  message: string;
}

export function MonitorSummary({
  entries,
  timeoutSeconds,
  groupNames,
  selectedEvents,
  onJump,
  onHover,
}: {
  entries: SummaryEntry[];
  timeoutSeconds: number;
  groupNames: string[];
  selectedEvents: SelectedEventEntry[];
  onJump(i: number): void;
  onHover(i: number): void;
}) {
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const groups: SummaryEntry[][] = [];
  for (const e of entries.slice(1, -1)) {
    if (!e.step) continue;
    if (e.step.groupStart || !groups.length) groups.push([]);
    groups.at(-1)?.push(e);
  }
  return (
    <section aria-label="Monitor summary" className="flex flex-col gap-2 text-sm">
      {groups.map((g, gi) => {
        const open = !collapsed.has(gi);
        const first = g[0]?.step;
        return (
          <div key={gi} className="rounded border border-line">
            <button
              type="button"
              aria-expanded={open}
              onClick={() => setCollapsed((c) => (c.has(gi) ? new Set([...c].filter((x) => x !== gi)) : new Set([...c, gi])))}
              className="flex w-full items-center gap-2 px-2 py-1 text-left text-xs font-semibold"
            >
              <span aria-hidden>{open ? '▾' : '▸'}</span> Group {(first?.group ?? gi) + 1}: {groupNames[first?.group ?? gi] || 'Unnamed'}
            </button>
            {open && (
              <ul className="px-2 pb-1">
                {g.map((e) =>
                  e.step ? (
                    <li key={e.step.index}>
                      <button
                        type="button"
                        onClick={() => e.step && onJump(e.step.index)}
                        onMouseEnter={() => e.step && onHover(e.step.index)}
                        data-state={[e.hasError && 'has-error', e.failed && 'failed'].filter(Boolean).join(' ')}
                        aria-current={e.summary?.active ? 'step' : undefined}
                        title={e.summary ? `${e.summary.action_type}${e.summary.job_action_id ? ` · latest job action ${e.summary.job_action_id}` : ''}` : undefined}
                        className={`flex w-full gap-2 rounded px-1 text-left text-xs hover:bg-raised ${e.hasError ? 'text-red-300' : e.failed ? 'text-red-200 line-through decoration-red-400/50' : ''}`}
                      >
                        <span className="w-8 text-muted">{e.step.index + 1}</span>
                        {e.summary?.actionName ?? e.step.name}
                        {e.summary && e.summary.events.length > 0 && <span className="ml-auto text-muted">{e.summary.events.length === 1 ? '1 event' : `${e.summary.events.length} events`}</span>}
                      </button>
                    </li>
                  ) : null,
                )}
              </ul>
            )}
          </div>
        );
      })}
      <table aria-label="Selected events" className="w-full text-xs">
        <caption className="text-left font-semibold">Selected Events</caption>
        <thead className="text-left text-muted">
          <tr>
            <th className="w-10">Step</th>
            <th>Event</th>
          </tr>
        </thead>
        <tbody>
          {selectedEvents.length === 0 ? (
            <tr>
              <td colSpan={2} className="text-muted">
                No expected events selected.
              </td>
            </tr>
          ) : (
            selectedEvents.map((e) => (
              <tr key={`${e.step}:${e.description}`} className="border-t border-line/60">
                <td>{e.step}</td>
                <td title={e.action}>
                  {e.description}
                  {e.message && <span className="block text-muted">{e.message}</span>}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <p className="text-xs">
        Timeout for Monitor Event Detection {timeoutSeconds} seconds
        <span className="block text-muted">Detection timing may be changed under Advanced Settings.</span>
      </p>
    </section>
  );
}
