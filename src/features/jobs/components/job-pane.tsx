import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { ref, useSnapshot } from 'valtio';
import { commands } from '@/commands/registry';
import { useWorkbench } from '@/panes/pane-context';
import { focusedJobContext, type FocusedJob } from '@/commands/focused-job';
import { paneContexts } from '@/commands/pane-contexts';
import { usePaneInstance } from '@/commands/pane-instance';
import type { PaneProps } from '@/panes/types';
import { CommandToolbar, useCommandHotkeys } from '@/commands/command-menu';
import { getJob, jobsKeys } from '@/features/jobs/api';
import { jobPaneState, setRows } from '@/features/jobs/pane-state';
import { stepsPollMs, usePolling } from '@/features/jobs/polling';
import { repollTree, useJobRows } from '@/features/jobs/tree-rows';
import { StatusCell, TimeCell } from './badges';
import { ActionCells, JOB_COLUMNS, NoteCells, StepCells, type RowEnv } from './rows';
import { TreeGrid } from './tree-grid';
import { EvidencePanel } from './evidence-panel';
import { treeKeys } from './jobs-pane';

/** Polling gave up: the refresh command's key (from its keybinding) brings the job back. */
function PollingStopped() {
  const [refresh] = useCommandHotkeys(['jobs.refresh']);
  return <p className="mt-2 text-xs text-amber-600 dark:text-amber-300">Polling stopped. {refresh ? `Press ${refresh} to refresh.` : 'Refresh to see changes.'}</p>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-2xs tracking-wide text-muted uppercase">{label}</dt>
      <dd className="truncate">{children}</dd>
    </div>
  );
}

/** A job (/jobs/{id}): its facts, operations and the steps with their actions. */
export function JobPane({ params }: PaneProps) {
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const s = useMemo(() => jobPaneState(valid ? id : 0), [id, valid]);
  const snap = useSnapshot(s);
  const qc = useQueryClient();
  const { controller } = useWorkbench();
  const perms = commands.context().permissions;
  const detail = useQuery({ queryKey: jobsKeys.detail(id), queryFn: () => getJob(id), enabled: valid });
  const job = detail.data;
  const { rows, openSteps } = useJobRows(id, detail);

  useEffect(() => {
    setRows(s, rows);
    if (s.job !== (job ?? null)) s.job = job ? ref(job) : null;
  });

  // The Network Map highlights the actors and path of the job in the focused pane.
  const focused = useMemo<FocusedJob>(
    () => ({
      id,
      name: job?.name ?? '',
      pairs: (job?.steps ?? []).flatMap((st) => (st.source ? [{ source: st.source.id, destination: st.destination?.id ?? null }] : [])),
    }),
    [id, job],
  );
  // Provided again whenever the job changes, so the map hears of its actors once they are loaded.
  const instance = usePaneInstance();
  useEffect(() => paneContexts.provide(focusedJobContext, instance, focused), [instance, focused]);

  const poller = usePolling(stepsPollMs(job), () => repollTree(qc, [id], openSteps, ''), valid && !!job);
  const restartRef = useRef(poller.restart);
  restartRef.current = poller.restart;
  const refreshTick = snap.refreshTick;
  useEffect(() => {
    if (refreshTick) restartRef.current();
  }, [refreshTick]);

  if (!valid) return <div className="p-6 text-muted">“{params.id}” is not a job id.</div>;
  if (detail.isPending) return <div className="p-6 text-muted" role="status">Loading Job {id}…</div>;
  if (detail.isError || !job)
    return (
      <div className="m-4 rounded border border-red-500/60 bg-red-500/10 p-3" role="alert">
        {detail.error?.message ?? 'Error'}
      </div>
    );

  const env: RowEnv = { permissions: perms, openUrl: (url) => controller.openUrl(url) };
  const totals = job.steps.reduce((t, st) => ({ actions: t.actions + st.action_count, blocked: t.blocked + st.blocked, detected: t.detected + st.detected }), { actions: 0, blocked: 0, detected: 0 });
  const pub = job.publish_job_pipeline;

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="job-pane">
      <header className="shrink-0 border-b border-line px-4 py-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="truncate text-base font-semibold" title={job.name}>
              <span className="font-mono text-muted">#{job.id}</span> {job.name}
            </h2>
            <p className="text-xs text-muted">
              {job.simulation ? `${job.simulation.sim_type === 'eval' ? 'Evaluation' : 'Sequence'} ${job.simulation.vid}` : job.action ? `Action ${job.action.vid}` : 'No simulation'}
              {' · '}
              {totals.actions} actions · Blocked {totals.blocked} · Detected {totals.detected}
            </p>
          </div>
          <CommandToolbar menu="toolbar/job" label="Job operations" args={{ id: job.id, job_status: job.status, simulation: job.simulation, action: job.action }} />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <Fact label="Status">
            <StatusCell status={job.status} progress={job.progress} />
          </Fact>
          <Fact label="Progress">{job.progress}%</Fact>
          <Fact label="Ran By">{job.job_user}</Fact>
          <Fact label="Time Started">
            <TimeCell iso={job.job_time} />
          </Fact>
          <Fact label="Finished">
            <TimeCell iso={job.finished_at} />
          </Fact>
          <Fact label="Published">
            {pub.latest_published_status === 2 ? (
              <span title={pub.latest_published_time ?? ''}>
                {pub.latest_published_pipeline ?? 'Yes'} <TimeCell iso={pub.latest_published_time} />
              </span>
            ) : pub.latest_published_status === 1 ? (
              'Publishing…'
            ) : (
              'Not published'
            )}
          </Fact>
          {job.assessment.assessment_name && <Fact label="Assessment">{job.assessment.assessment_name}</Fact>}
        </dl>
        {poller.stopped && <PollingStopped />}
      </header>
      <TreeGrid
        label={`Steps of job ${job.id}`}
        rows={rows}
        activeKey={snap.activeKey}
        onActivate={(key) => void (s.activeKey = key)}
        columns={JOB_COLUMNS}
        onKey={(e, row) => treeKeys(e, row, s, env.openUrl)}
        header={
          <>
            <div role="columnheader" className="col-span-2">
              Step / Action
            </div>
            <div role="columnheader">Blocked / Result</div>
            <div role="columnheader">Actors / Events</div>
            <div role="columnheader">Run As / Type</div>
            <div role="columnheader">
              <span className="sr-only">Row actions</span>
            </div>
          </>
        }
        renderRow={(row) => (row.kind === 'step' ? <StepCells row={row} /> : row.kind === 'action' ? <ActionCells row={row} env={env} /> : row.kind === 'note' ? <NoteCells row={row} /> : null)}
      />
      <EvidencePanel s={s} />
    </div>
  );
}
