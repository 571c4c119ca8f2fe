import { useState } from 'react';
import { JsonViewerModal } from '@/ui/json-viewer';
import { useQuery } from '@tanstack/react-query';
import {
  EXPECTED_EVENTS_ENDPOINT,
  EXPECTED_EVENTS_KEEP_TEXT,
  EXPECTED_EVENTS_LOADING_TEXT,
  RAW_EVENT_MAX_WIDTH,
  type ExpectedEvent,
  type ExpectedEventRow,
  type ExpectedEventsGroup,
  type ExpectedEventsState,
} from '@/api/contracts/monitors';
import { Button } from '@/ui/button';
import { fetchExpectedEvents, monitorKeys } from './api';

const same = (a: Pick<ExpectedEvent, 'integration_id' | 'description'>, b: Pick<ExpectedEvent, 'integration_id' | 'description'>) =>
  a.integration_id === b.integration_id && a.description.toLowerCase() === b.description.toLowerCase();

/** The answer's groups with the draft's selections laid over (a selection no run reported yet is listed too). */
export function withSelections(groups: ExpectedEventsGroup[], selected: ExpectedEvent[]): ExpectedEventsGroup[] {
  const out = groups.map((g) => ({
    ...g,
    events: g.events.map((e) => {
      const pick = selected.find((s) => same(s, e));
      return { ...e, is_selected: !!pick, message: pick?.message ?? '' };
    }),
  }));
  for (const s of selected) {
    if (out.some((g) => g.events.some((e) => same(s, e)))) continue;
    const key = s.integration_id === null ? EXPECTED_EVENTS_ENDPOINT : String(s.integration_id);
    let group = out.find((g) => g.key === key);
    if (!group) {
      group = { key, integration: null, events: [] };
      out.push(group);
    }
    group.events.push({ description: s.description, is_selected: true, raw_event: '', security_technology_id: null, integration_id: s.integration_id, message: s.message });
  }
  return out;
}

/** The security technology's logo, or its name when there is none or it does not load. */
function TechnologyLogo({ logo, name }: { logo: string | undefined; name: string }) {
  const [failed, setFailed] = useState(false);
  if (!logo || failed) return <span className="text-muted">{name}</span>;
  return <img src={logo} alt={name} title={name} className="h-4" onError={() => setFailed(true)} />;
}

/**
 * MON-014, MON-041, MON-080: the events that count as detection for one action, grouped by integration
 * or 'endpoint'. A saved selection starts as KEEP_EXISTING ('No changes made to expected events.' with
 * Show Selections); requesting the data shows LOADING ('Requesting event data'). A row's message is
 * editable only while it is selected; its raw event expands in a cell at most 500 px wide.
 */
export function ExpectedEventsTable({ actionId, selected, onChange }: { actionId: number; selected: ExpectedEvent[]; onChange(events: ExpectedEvent[]): void }) {
  const [show, setShow] = useState(selected.length === 0);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [viewing, setViewing] = useState<ExpectedEventRow | null>(null);
  const query = useQuery({ queryKey: monitorKeys.expectedEvents(actionId), queryFn: ({ signal }) => fetchExpectedEvents(actionId, signal), enabled: show });
  const state: ExpectedEventsState = !show ? 'KEEP_EXISTING' : query.isPending ? 'LOADING' : query.isError ? 'ERROR' : 'READY';

  const toggle = (e: ExpectedEventRow) =>
    onChange(e.is_selected ? selected.filter((s) => !same(s, e)) : [...selected, { integration_id: e.integration_id, description: e.description, message: e.message }]);
  const setMessage = (e: ExpectedEventRow, message: string) => onChange(selected.map((s) => (same(s, e) ? { ...s, message } : s)));

  return (
    <section aria-label="Expected events" data-state={state} className="flex flex-col gap-2 rounded border border-line p-2 text-xs">
      <h4 className="font-semibold">Expected Events</h4>
      <JsonViewerModal open={viewing !== null} title={`Raw event: ${viewing?.description ?? ''}`} text={viewing?.raw_event ?? ''} onClose={() => setViewing(null)} />
      {state === 'KEEP_EXISTING' && (
        <div className="flex items-center gap-2">
          <span>{EXPECTED_EVENTS_KEEP_TEXT}</span>
          <Button onClick={() => setShow(true)}>Show Selections</Button>
        </div>
      )}
      {state === 'LOADING' && (
        <div role="status" className="flex items-center gap-2 text-muted">
          <span aria-hidden className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-line border-t-accent" />
          {EXPECTED_EVENTS_LOADING_TEXT}
        </div>
      )}
      {state === 'ERROR' && <p className="text-red-400">Could not request the event data: {query.error?.message}</p>}
      {state === 'READY' && query.data && (() => {
        const groups = withSelections(query.data.groups, selected);
        if (!groups.length) return <p className="text-muted">No integration has reported an event for this action yet. Run it once, then choose the events that count as detection.</p>;
        const logos = new Map(query.data.security_technologies.map((t) => [t.id, t.logo_path_for_web]));
        return groups.map((g) => (
          <table key={g.key} className="w-full table-fixed" aria-label={g.key === EXPECTED_EVENTS_ENDPOINT ? 'Events of endpoint' : `Events of ${g.integration?.name ?? `integration ${g.key}`}`}>
            <caption className="py-1 text-left font-semibold">
              {g.key === EXPECTED_EVENTS_ENDPOINT ? 'endpoint' : `${g.integration?.name ?? `Integration ${g.key}`}${g.integration?.host ? ` (${g.integration.host})` : ''}`}
            </caption>
            <thead className="text-left text-muted">
              <tr>
                <th className="w-16">Selected</th>
                <th>Description</th>
                <th>Message</th>
                <th style={{ maxWidth: RAW_EVENT_MAX_WIDTH }}>Raw Event</th>
                <th className="w-20">Technology</th>
              </tr>
            </thead>
            <tbody>
              {g.events.map((e) => {
                const rowKey = `${g.key}:${e.description}`;
                const expanded = open.has(rowKey);
                const logo = e.security_technology_id ? logos.get(e.security_technology_id) : undefined;
                return (
                  <tr key={rowKey} aria-selected={e.is_selected} className={`border-t border-line/60 align-top ${e.is_selected ? 'bg-accent/10' : ''}`}>
                    <td className="py-1">
                      <input type="checkbox" aria-label={`Select ${e.description}`} checked={e.is_selected} onChange={() => toggle(e)} />
                    </td>
                    <td className="py-1 break-words">{e.description}</td>
                    <td className="py-1">
                      <input
                        aria-label={`Message for ${e.description}`}
                        className="w-full rounded border border-line bg-surface px-1 disabled:opacity-50"
                        disabled={!e.is_selected}
                        value={e.message}
                        onChange={(ev) => setMessage(e, ev.target.value)}
                      />
                    </td>
                    <td className="py-1" style={{ maxWidth: RAW_EVENT_MAX_WIDTH }}>
                      {e.raw_event ? (
                        <>
                          <button
                            type="button"
                            aria-expanded={expanded}
                            className="text-accent hover:underline"
                            onClick={() => setOpen((s) => (s.has(rowKey) ? new Set([...s].filter((k) => k !== rowKey)) : new Set([...s, rowKey])))}
                          >
                            {expanded ? 'Hide raw event' : 'Show raw event'}
                          </button>
                          <button type="button" className="ml-2 text-accent hover:underline" onClick={() => setViewing(e)}>
                            Open in viewer
                          </button>
                          {expanded && (
                            <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-surface p-1 font-mono text-2xs" style={{ maxWidth: RAW_EVENT_MAX_WIDTH }}>
                              {e.raw_event}
                            </pre>
                          )}
                        </>
                      ) : (
                        <span className="text-muted">—</span>
                      )}
                    </td>
                    <td className="py-1">
                      <TechnologyLogo logo={logo} name={e.security_technology_id ?? 'endpoint'} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ));
      })()}
    </section>
  );
}
