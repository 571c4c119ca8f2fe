import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { formatTimestamp } from '@/ui/datetime';
import { MAX_SUMMARY_JOBS, statusLabel, type SummaryTotals } from '@/api/contracts/jobs';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { TableHead, type Column } from '@/ui/table-head';
import { getActionEvents, getSummary, jobsKeys } from '@/features/jobs/api';
import { PercentBar } from './badges';
import { EventsOf } from './dialogs';

/**
 * Printing: Print copies the report into a top-level element and hides everything else, so the report
 * flows over as many pages as it needs, in black on white, without the workbench around it.
 */
const PRINT_CSS = `@media print {
  body > *:not(.vigil-print-portal) { display: none !important; }
  html, body, #root { height: auto !important; background: #fff !important; }
  .vigil-print-portal { display: block !important; color: #000; background: #fff; padding: 0 8mm; }
  .vigil-print-portal * { color: #000 !important; border-color: #999 !important; }
  .vigil-no-print { display: none !important; }
}
@media screen { .vigil-print-portal { display: none; } }`;

function usePrint(): [boolean, () => void] {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (!printing) return;
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done);
    // Let the copy render, then print (print() returns when the dialog closes; afterprint ends it, or a timer).
    let fallback: ReturnType<typeof setTimeout> | undefined;
    const t = setTimeout(() => {
      window.print();
      fallback = setTimeout(done, 2000);
    }, 50);
    return () => {
      clearTimeout(t);
      clearTimeout(fallback);
      window.removeEventListener('afterprint', done);
    };
  }, [printing]);
  return [printing, () => setPrinting(true)];
}

export function parseIds(raw: string | undefined): number[] {
  return [...new Set((raw ?? '').split(',').map((x) => x.trim()).filter((x) => /^\d+$/.test(x)).map(Number))].slice(0, MAX_SUMMARY_JOBS);
}

const SUMMARY_COLUMNS: Column[] = [{ label: 'Step' }, ...['Actions', 'Blocked', 'Detected', 'Alerted', 'Not Run'].map((label) => ({ label, right: true })), { label: 'Percent Blocked' }];

function Totals({ t }: { t: SummaryTotals }) {
  return (
    <>
      <td className="px-2 py-1 text-right tabular-nums">{t.actions}</td>
      <td className="px-2 py-1 text-right tabular-nums">{t.blocked}</td>
      <td className="px-2 py-1 text-right tabular-nums">{t.detected}</td>
      <td className="px-2 py-1 text-right tabular-nums">{t.alerted}</td>
      <td className="px-2 py-1 text-right tabular-nums">{t.not_run}</td>
      <td className="px-2 py-1">
        <PercentBar value={t.percent_blocked} label="Percent blocked" />
      </td>
    </>
  );
}

/** Job Summary Report (/reports/summary?job_ids[]=): per job and per step totals, printable. */
export function SummaryReportPane({ params }: PaneProps) {
  const ids = parseIds(params.job_ids);
  const q = useQuery({ queryKey: jobsKeys.summary(ids), queryFn: () => getSummary(ids), enabled: ids.length > 0 });
  const [printing, print] = usePrint();
  if (!ids.length) return <div className="p-6 text-muted">Choose jobs for the report: select them in the Jobs pane and run Job Summary Report.</div>;
  const report: ReactNode = (
    <>
      {q.data?.jobs.map((j) => (
        <section key={j.id} className="mb-6 break-inside-avoid" aria-label={`Job ${j.id}`}>
          <h3 className="font-semibold">
            <a href={`/jobs/${j.id}`} className="text-accent hover:underline">
              Job {j.id}
            </a>{' '}
            {j.name}
          </h3>
          <p className="text-xs text-muted">
            {statusLabel(j.status)} · Ran by {j.job_user} · Started {formatTimestamp(j.job_time)}
          </p>
          <table className="mt-2 w-full text-left text-sm">
            <TableHead columns={SUMMARY_COLUMNS} cellClassName="px-2 py-1" />
            <tbody>
              {j.steps.map((st) => (
                <tr key={st.id} className="border-b border-line/50">
                  <td className="px-2 py-1">
                    Step {st.group_order}: {st.name}
                  </td>
                  <Totals t={st.totals} />
                </tr>
              ))}
              <tr className="font-semibold">
                <td className="px-2 py-1">Total</td>
                <Totals t={j.totals} />
              </tr>
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
  return (
    <div className="p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Job Summary Report</h2>
        <Button onClick={print} disabled={!q.data}>
          Print
        </Button>
      </div>
      {q.isPending && (
        <p role="status" className="text-muted">
          Loading the report…
        </p>
      )}
      {q.isError && (
        <p role="alert" className="text-red-500">
          {q.error.message}
        </p>
      )}
      {report}
      {printing &&
        createPortal(
          <div className="vigil-print-portal" aria-hidden="true">
            <style>{PRINT_CSS}</style>
            <h1 className="mb-3 text-lg font-semibold">Job Summary Report</h1>
            {report}
          </div>,
          document.body,
        )}
    </div>
  );
}

/** Suspicious events of one job action (/suspect_events?job_action_id=), opened in a new window. */
export function SuspectEventsPane({ params }: PaneProps) {
  const id = Number(params.job_action_id);
  const valid = Number.isInteger(id) && id > 0;
  const q = useQuery({ queryKey: jobsKeys.events(id, 'suspicious'), queryFn: () => getActionEvents(id, 'suspicious'), enabled: valid, retry: false });
  if (!valid) return <div className="p-6 text-muted">Give a job action: /suspect_events?job_action_id=…</div>;
  return (
    <div className="p-4">
      <h2 className="text-base font-semibold">Suspicious Events{q.data ? `: ${q.data.job_action.name}` : ''}</h2>
      {q.data && (
        <p className="mb-3 text-xs text-muted">
          Job{' '}
          <a href={`/jobs/${q.data.job_action.job_id}`} className="text-accent hover:underline">
            {q.data.job_action.job_id}
          </a>{' '}
          · {q.data.job_action.sim_action_vid}
        </p>
      )}
      <EventsOf query={q} />
    </div>
  );
}
