import { SYSTEM_PROFILE, type JobStep, type NodeRef } from '@/api/contracts/jobs';
import type { Permission } from '@/api/contracts/permissions';
import { CommandMenu, runFrom, usePaneCommandContext } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { setJobOpen, setStepOpen } from '@/features/jobs/expanded';
import type { RowRef } from '@/features/jobs/pane-state';
import { maySeeEvents, suspectEventsUrl } from '@/features/jobs/predicates';
import '@/features/jobs/menus';
import { StatusCell, ResultBadge, TimeCell } from './badges';
import { Expander } from './tree-grid';

/** The six columns: Job Id, Job Name, Job Status, Ran By, Time Started, row actions. */
export const JOB_COLUMNS = 'minmax(7.5rem, 0.7fr) minmax(12rem, 2.2fr) minmax(7rem, 0.9fr) minmax(8rem, 1fr) minmax(8.5rem, 1fr) 2.5rem';

export interface RowEnv {
  permissions: ReadonlySet<Permission>;
  /** Navigation inside the workbench (opens or focuses a pane). */
  openUrl(url: string): void;
  /** Job list only. */
  selection?: { selected: readonly number[]; toggle(id: number): void };
}

const indent = (level: number) => ({ paddingLeft: `${(level - 1) * 1.25}rem` });

function NodeLink({ node }: { node: NodeRef | null }) {
  if (!node) return <span className="text-muted">—</span>;
  return (
    <a href={`/topology/nodes/${node.id}/edit`} className="truncate hover:text-accent hover:underline" title={`${node.name}${node.value ? ` (${node.value})` : ''}${node.zone ? `, zone ${node.zone}` : ''}`}>
      {node.label}
    </a>
  );
}

export function JobCells({ row, env }: { row: Extract<RowRef, { kind: 'job' }>; env: RowEnv }) {
  const j = row.job;
  const sel = env.selection;
  return (
    <>
      <div className="flex min-w-0 items-center gap-1.5" role="gridcell">
        {sel && (
          <input
            type="checkbox"
            className="h-3.5 w-3.5 accent-[rgb(var(--accent))]"
            aria-label={`Select job ${j.id}`}
            checked={sel.selected.includes(j.id)}
            onChange={() => sel.toggle(j.id)}
          />
        )}
        <Expander expanded={row.expanded} label={`job ${j.id}`} onToggle={() => setJobOpen(j.id, !row.expanded)} />
        <a href={`/jobs/${j.id}`} className="font-mono text-accent hover:underline">
          {j.id}
        </a>
      </div>
      <div className="min-w-0" role="gridcell">
        <div className="truncate font-medium" title={j.job_name}>
          {j.job_name}
        </div>
        <div className="truncate text-2xs text-muted">
          {j.simulation?.vid ?? j.action?.vid ?? ''}
          {j.assessment_name ? ` · ${j.assessment_name}` : ''}
          {j.published_status === 2 && j.latest_published_pipeline ? ` · Published to ${j.latest_published_pipeline}` : ''}
        </div>
      </div>
      <div role="gridcell">
        <StatusCell status={j.job_status} progress={j.progress} />
      </div>
      <div className="truncate" role="gridcell" title={j.job_user}>
        {j.job_user}
      </div>
      <div role="gridcell">
        <TimeCell iso={j.job_time} />
      </div>
      <div role="gridcell" className="flex justify-end">
        <CommandMenu menu="row/job" args={j} label={`Actions for job ${j.id}`} />
      </div>
    </>
  );
}

export function StepCells({ row }: { row: Extract<RowRef, { kind: 'step' }> }) {
  const st: JobStep = row.step;
  const profile = st.action_user_profile_friendly_name || SYSTEM_PROFILE;
  return (
    <>
      <div className="col-span-2 flex min-w-0 items-center gap-1.5" role="gridcell" style={indent(row.level)}>
        <Expander expanded={row.expanded} label={`step ${st.group_order}`} onToggle={() => setStepOpen(row.jobId, st.id, !row.expanded)} />
        <span className="shrink-0 font-medium">Step {st.group_order}</span>
        <span className="truncate text-muted" title={st.name}>
          {st.name}
        </span>
      </div>
      <div className="flex min-w-0 gap-2 text-2xs" role="gridcell">
        <span title="Blocked actions">
          Blocked <b className="tabular-nums">{st.blocked}</b>
        </span>
        <span title="Detected actions">
          Detected <b className="tabular-nums">{st.detected}</b>
        </span>
      </div>
      <div className="flex min-w-0 items-center gap-1 text-2xs" role="gridcell">
        <NodeLink node={st.source} />
        {st.destination && (
          <>
            <span aria-label="to" className="text-muted">
              →
            </span>
            <NodeLink node={st.destination} />
          </>
        )}
      </div>
      <div className="min-w-0 truncate text-2xs" role="gridcell">
        Run as{' '}
        <a href="/action_user_profiles" className="hover:text-accent hover:underline" title={st.action_user_profile_name ?? SYSTEM_PROFILE}>
          {profile}
        </a>
      </div>
      <div className="text-right text-2xs text-muted tabular-nums" role="gridcell" title={`${st.completed_count} of ${st.action_count} actions complete`}>
        {st.action_count}
      </div>
    </>
  );
}

export function ActionCells({ row, env }: { row: Extract<RowRef, { kind: 'action' }>; env: RowEnv }) {
  const a = row.action;
  const canSee = maySeeEvents(env.permissions);
  const { opts } = usePaneCommandContext();
  return (
    <>
      <div className="col-span-2 flex min-w-0 items-center gap-2" role="gridcell" style={indent(row.level)}>
        <span className="w-5 shrink-0" />
        <span className="truncate" title={a.name}>
          {a.name}
        </span>
        <span className="shrink-0 font-mono text-2xs text-muted">{a.sim_action_vid}</span>
        {a.disabled && <span className="shrink-0 rounded bg-raised px-1 text-2xs text-muted">disabled</span>}
      </div>
      <div role="gridcell" title={a.blocked_msg ?? a.detected_msg ?? undefined}>
        <ResultBadge action={a} />
      </div>
      <div className="flex min-w-0 items-center gap-2 text-2xs" role="gridcell">
        {a.reason ? (
          // Why it did not run (or ended so), on screen: the full text is in its evidence (Enter).
          <span className="truncate text-muted" title={a.reason}>
            {a.reason}
          </span>
        ) : canSee && a.events > 0 ? (
          <button type="button" className="text-accent hover:underline" onClick={() => runFrom(commands, 'jobs.showEvents', { job_action_id: a.id }, 'button', opts)}>
            Events ({a.events})
          </button>
        ) : (
          <span className="text-muted">{a.events > 0 ? `Events (${a.events})` : 'No events'}</span>
        )}
        {canSee && a.suspect_events > 0 && (
          <a href={suspectEventsUrl(a.id)} target="_blank" rel="noopener" className="text-amber-600 hover:underline dark:text-amber-300">
            Suspicious ({a.suspect_events})
          </a>
        )}
      </div>
      <div className="truncate text-2xs text-muted" role="gridcell">
        {a.action_type.replace(/_/g, ' ')}
      </div>
      <div role="gridcell" className="flex justify-end">
        <CommandMenu menu="row/job-action" args={a} label={`Actions for ${a.name}`} />
      </div>
    </>
  );
}

export function NoteCells({ row }: { row: Extract<RowRef, { kind: 'note' }> }) {
  return (
    <div className={`col-span-6 text-2xs ${row.tone === 'error' ? 'text-red-500' : 'text-muted'}`} role="gridcell" style={indent(row.level + 1)}>
      {row.text}
    </div>
  );
}

/** A job that no longer changes: finished and published (the list then polls every 60 s). */
