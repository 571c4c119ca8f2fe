import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { formatTimestamp } from '@/ui/datetime';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  EVENT_SEVERITY_LABELS,
  JOBS_EXPORT_NAME,
  JOB_ACTIONS_EXPORT_NAME,
  LOADING_EVENTS,
  NO_EVENTS,
  PUBLISH_PIPELINES,
  type JobEvent,
} from '@/api/contracts/jobs';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { CsvExportForm } from '@/ui/csv-options-fields';
import { getActionEvents, jobsKeys } from '@/features/jobs/api';
import { runExport } from '@/features/jobs/commands';
import { dialogs } from '@/features/jobs/dialogs';
import { findPaneState } from '@/features/jobs/pane-state';
import { suspectEventsUrl } from '@/features/jobs/predicates';

/** A job action's events as a query reads them: loading, its error, none, or the list. */
export function EventsOf({ query: q }: { query: UseQueryResult<{ events: readonly JobEvent[] }> }) {
  return q.isPending ? (
    <p role="status" className="text-muted">
      {LOADING_EVENTS}
    </p>
  ) : q.isError ? (
    <p role="alert" className="text-red-500">
      {q.error.message}
    </p>
  ) : q.data.events.length === 0 ? (
    <p role="status" className="text-muted">
      {NO_EVENTS}
    </p>
  ) : (
    <EventList events={q.data.events} />
  );
}

export function EventList({ events }: { events: readonly JobEvent[] }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Events">
      {events.map((e) => (
        <li key={e.id} className="rounded border border-line bg-surface/60 p-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="font-medium">{e.description}</span>
            <time className="text-2xs text-muted tabular-nums" dateTime={e.occurred_at}>
              {formatTimestamp(e.occurred_at, { seconds: true })}
            </time>
          </div>
          <div className="mt-0.5 text-2xs text-muted">
            {[e.integration?.name ?? 'Unknown integration', e.alert ? 'Alert' : null, e.severity ? EVENT_SEVERITY_LABELS[e.severity] : null, e.suspicious ? 'suspicious' : null]
              .filter(Boolean)
              .join(' · ')}
          </div>
          {e.raw_event && (
            <details className="mt-1">
              <summary className="cursor-pointer text-2xs text-accent">Raw event</summary>
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-raised p-2 font-mono text-2xs break-all whitespace-pre-wrap">{prettyJson(e.raw_event)}</pre>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 4);
  } catch {
    return raw;
  }
}

/** The modal listing a job action's detected events (JOB-105). */
function EventsModal() {
  const { events: open } = useSnapshot(dialogs);
  const id = open?.jobActionId ?? 0;
  const q = useQuery({ queryKey: jobsKeys.events(id, 'detected'), queryFn: () => getActionEvents(id, 'detected'), enabled: !!open, retry: false });
  const suspicious = q.data?.job_action.suspect_events ?? 0;
  return (
    <Modal open={!!open} title={`Detected Events: ${q.data?.job_action.name ?? open?.name ?? ''}`} onClose={() => (dialogs.events = null)} size="lg">
      <div className="max-h-[60vh] overflow-auto" aria-live="polite">
        <EventsOf query={q} />
      </div>
      {suspicious > 0 && (
        <p className="mt-3 text-sm">
          <a href={suspectEventsUrl(id)} target="_blank" rel="noopener" className="text-amber-600 underline dark:text-amber-300">
            {suspicious} suspicious event{suspicious === 1 ? '' : 's'} (opens a new window)
          </a>
        </p>
      )}
    </Modal>
  );
}

/** Export options (monitors-actors-reporting.md section 7) with the Job Action Report checkbox. */
function ExportDialog() {
  const { export: open } = useSnapshot(dialogs);
  return (
    <Modal open={!!open} title="Export to CSV" onClose={() => (dialogs.export = null)}>
      {open && <ExportForm key={`${open.paneKey}:${open.jobActionReport}`} paneKey={open.paneKey} jobActionReport={open.jobActionReport} />}
    </Modal>
  );
}

function ExportForm({ paneKey, jobActionReport }: { paneKey: string; jobActionReport: boolean }) {
  const [report, setReport] = useState(jobActionReport);
  const exportName = report ? JOB_ACTIONS_EXPORT_NAME : JOBS_EXPORT_NAME;
  const [kind, ...rest] = paneKey.split(':');
  const state = findPaneState({ kind: kind ?? '', params: kind === 'jobs' ? { vid: rest.join(':') } : { id: rest.join(':') } });
  const rows = {
    visible: `Visible (${state?.kind === 'job' ? 'this job' : `${state?.pageJobs.length ?? 0} jobs on this page`})`,
    all: `All (${state?.kind === 'job' ? 'this job' : `${(state?.totalShown ?? 0).toLocaleString()} jobs matching the filter`})`,
  };
  return (
    <CsvExportForm
      rows={rows}
      exportName={exportName}
      onCancel={() => (dialogs.export = null)}
      onExport={async (options) => {
        await runExport(state, { ...options, job_action_report: report });
        dialogs.export = null;
      }}
    >
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={report} onChange={(e) => setReport(e.target.checked)} />
        Job Action Report (one line per action of each job)
      </label>
    </CsvExportForm>
  );
}

/** The publish job results modal (jobs.publish): pick the pipeline. */
function PublishDialog() {
  const { publish: open } = useSnapshot(dialogs);
  const [pipeline, setPipeline] = useState<string>(PUBLISH_PIPELINES[0]);
  // Read on each render: the licensed features are known once the workbench has mounted.
  const multisite = commands.context().licensedFeatures.has('multisite_reporting');
  const [leaveOutMultisite, setLeaveOutMultisite] = useState(false);
  const n = open?.jobIds.length ?? 0;
  return (
    <Modal open={!!open} title="Publish Job Results" onClose={() => (dialogs.publish = null)} size="sm">
      <form
        className="flex flex-col gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          const ids = open ? [...open.jobIds] : [];
          dialogs.publish = null;
          void commands.execute('jobs.publish', { job_ids: ids, pipeline, multisite_reporting: multisite && !leaveOutMultisite }, 'button').catch(() => undefined);
        }}
      >
        <p>
          Publish {n} job result{n === 1 ? '' : 's'} to:
        </p>
        <label className="flex flex-col gap-1 text-xs font-medium text-muted">
          Pipeline
          <select className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink" value={pipeline} onChange={(e) => setPipeline(e.target.value)} autoFocus>
            {PUBLISH_PIPELINES.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        {multisite && (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={!leaveOutMultisite} onChange={(e) => setLeaveOutMultisite(!e.target.checked)} />
            Include in multisite reporting
          </label>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={() => (dialogs.publish = null)}>Cancel</Button>
          <Button type="submit" variant="primary">
            Publish
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Mounted once (feature global). */
export function JobsDialogs() {
  return (
    <>
      <EventsModal />
      <ExportDialog />
      <PublishDialog />
    </>
  );
}
