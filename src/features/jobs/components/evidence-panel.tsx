import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import type { JobActionEvidenceAnswer } from '@/api/contracts/jobs';
import { CommandButton } from '@/commands/command-menu';
import { getActionEvidence, jobsKeys, serverMessage } from '@/features/jobs/api';
import { durationText, evidenceTime, outputText, resultLine, workLine } from '@/features/jobs/evidence';
import type { PaneState } from '@/features/jobs/pane-state';
import { EventList } from './dialogs';
import { ResultBadge } from './badges';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}

function Output({ label, value }: { label: string; value: unknown }) {
  const text = outputText(value);
  if (!text) return null;
  return (
    <section aria-label={label}>
      <h4 className="text-2xs font-semibold tracking-wide text-muted uppercase">{label}</h4>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-raised p-2 font-mono text-2xs break-all whitespace-pre-wrap select-text">{text}</pre>
    </section>
  );
}

function Evidence({ e }: { e: JobActionEvidenceAnswer }) {
  const a = e.job_action;
  return (
    <div className="flex flex-col gap-3 text-xs select-text">
      <dl className="flex flex-col gap-1">
        <Row label="Result">
          <span className="inline-flex flex-wrap items-center gap-2">
            <ResultBadge action={a} />
            <span>{resultLine(a)}</span>
          </span>
        </Row>
        {a.blocked_msg && a.blocked_msg !== a.reason && <Row label={a.blocked ? 'Blocked' : 'Not blocked'}>{a.blocked_msg}</Row>}
        {a.detected_msg && <Row label="Detected">{a.detected_msg}</Row>}
        <Row label="Step">
          Step {a.step.group_order}: {a.step.name}
        </Row>
        <Row label="Type">{a.action_type.replace(/_/g, ' ')}</Row>
        <Row label="Timings">
          Started {evidenceTime(a.started_at)} · Finished {evidenceTime(a.finished_at)} · Duration {durationText(a.duration_ms)}
        </Row>
        {e.work.map((w) => (
          <Row key={w.role} label={w.role === 'source' ? 'Source actor' : 'Destination actor'}>
            {workLine(w).replace(/^\w+ actor /, '')}
          </Row>
        ))}
      </dl>
      {e.work.map((w) => (
        <Output key={w.role} label={`Output (${w.role === 'source' ? 'source' : 'destination'})`} value={w.result} />
      ))}
      {Object.keys(a.evidence).length > 0 && <Output label="Evidence" value={a.evidence} />}
      {e.events && (
        <section aria-label="Events">
          <h4 className="text-2xs font-semibold tracking-wide text-muted uppercase">Events ({e.events.length})</h4>
          {e.events.length ? <EventList events={e.events} /> : <p className="text-muted">No events were matched to this action.</p>}
        </section>
      )}
    </div>
  );
}

/**
 * The evidence of one job action (Show Action Evidence, Enter on an action row): why it was blocked or
 * did not run, each actor's output and timings, its events; selectable text, Copy and Close commands.
 * Opening it moves the focus in; closing it gives the focus back.
 */
export function EvidencePanel({ s }: { s: PaneState }) {
  const { evidence, evidenceFocusTick } = useSnapshot(s);
  const id = evidence?.id ?? 0;
  const q = useQuery({ queryKey: jobsKeys.evidence(id), queryFn: () => getActionEvidence(id), enabled: !!evidence, retry: false });
  const region = useRef<HTMLElement>(null);
  const back = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!evidenceFocusTick || !region.current) return;
    if (!region.current.contains(document.activeElement)) back.current = document.activeElement as HTMLElement | null;
    region.current.focus();
  }, [evidenceFocusTick, id]);
  useEffect(() => {
    if (evidence) return;
    back.current?.focus();
    back.current = null;
  }, [evidence]);
  if (!evidence) return null;
  const title = `Evidence: ${q.data?.job_action.name ?? evidence.name}`;
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label={title}
      className="flex max-h-[50%] min-h-40 shrink-0 flex-col border-t-2 border-accent/60 bg-panel focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:ring-inset"
    >
      <header className="flex shrink-0 items-center gap-2 border-b border-line px-3 py-1.5">
        <h3 className="min-w-0 flex-1 truncate text-sm font-semibold">
          {title}
          {q.data && <span className="ml-2 font-mono text-2xs font-normal text-muted">{q.data.job_action.sim_action_vid}</span>}
        </h3>
        <CommandButton command="jobs.copyEvidence" variant="ghost" />
        <CommandButton command="jobs.closeEvidence" variant="ghost" />
      </header>
      <div className="min-h-0 flex-1 overflow-auto px-3 py-2">
        {q.isPending ? (
          <p role="status" className="text-muted">
            Loading evidence…
          </p>
        ) : q.isError ? (
          <p role="alert" className="text-red-600 dark:text-red-300">
            {serverMessage(q.error)}
          </p>
        ) : (
          <Evidence e={q.data} />
        )}
      </div>
    </section>
  );
}
