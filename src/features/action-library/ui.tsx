import type { ReactNode } from 'react';
import { OPEN_RULESET_SOURCE, ruleDocumentationUrl, type DetectionAlert, type Signature, type SimulationRef } from '@/api/contracts/library';
import { datePart } from './format';
import { Table } from '@/ui/table';

export { Table };

/** Small building blocks shared by the detail panel and the preview. */

export function Fields({ rows }: { rows: [ReactNode, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[minmax(7rem,max-content)_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([k, v], i) => (
        <div key={i} className="contents">
          <dt className="text-muted">{k}</dt>
          <dd className="min-w-0 break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return <span className="font-mono text-2xs break-all">{children}</span>;
}

export function Badge({ children, tone = 'neutral', title }: { children: ReactNode; tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'accent'; title?: string }) {
  const TONE = {
    neutral: 'border-line bg-raised text-muted',
    good: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-600 dark:text-emerald-400',
    warn: 'border-amber-500/40 bg-amber-500/10 text-amber-600 dark:text-amber-400',
    bad: 'border-red-500/40 bg-red-500/10 text-red-600 dark:text-red-400',
    accent: 'border-accent/40 bg-accent/10 text-accent',
  };
  return (
    <span title={title} className={`inline-flex items-center gap-1 rounded border px-1.5 text-2xs leading-5 whitespace-nowrap ${TONE[tone]}`}>
      {children}
    </span>
  );
}

/** 'Common Detection Alerts': Source, Message, SID; open ruleset rows link to the rule's documentation (ACT-003). */
export function AlertsTable({ alerts }: { alerts: DetectionAlert[] }) {
  return (
    <Table
      label="Common Detection Alerts"
      head={['Source', 'Message', 'SID']}
      empty="No common detection alerts."
      rows={alerts.map((a) => [
        a.source,
        a.source === OPEN_RULESET_SOURCE && a.source_identifier ? (
          <a href={ruleDocumentationUrl(a.source_identifier)} target="_blank" rel="noopener noreferrer" className="text-accent underline">
            {a.message}
          </a>
        ) : (
          a.message
        ),
        <Mono key="sid">{a.source_identifier || '--'}</Mono>,
      ])}
    />
  );
}

export function SignaturesList({ signatures }: { signatures: Signature[] }) {
  if (!signatures.length) return <p className="text-muted">No signatures.</p>;
  return (
    <div className="flex flex-col gap-1" aria-label="Signatures">
      {signatures.map((s) => (
        <pre key={s.id} className="overflow-x-auto rounded bg-raised p-2 font-mono text-2xs whitespace-pre-wrap">
          {s.text}
        </pre>
      ))}
    </div>
  );
}

/** 'Sequences and Evaluations': VID, Name, Date Created (ACT-005). */
export function SimulationsTable({ simulations }: { simulations: SimulationRef[] }) {
  return (
    <Table
      label="Sequences and Evaluations"
      head={['VID', 'Name', 'Date Created']}
      empty="Not used by any Sequence or Evaluation."
      rows={simulations.map((s) => [
        <a key="vid" href={`/simulation/${encodeURIComponent(s.vid)}?sim_type=${s.simulation_type}`} className="font-mono text-2xs text-accent underline">
          {s.vid}
        </a>,
        s.name,
        datePart(s.created_at),
      ])}
    />
  );
}
