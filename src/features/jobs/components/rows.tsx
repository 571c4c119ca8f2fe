import { SYSTEM_PROFILE, type JobAction, type JobListItem, type JobStep, type NodeRef } from '@/api/contracts/jobs';
import type { Permission } from '@/api/contracts/permissions';
import { commands } from '@/commands/registry';
import { setJobOpen, setStepOpen } from '@/features/jobs/expanded';
import type { RowRef } from '@/features/jobs/pane-state';
import {
  cancelAllowed,
  cloneActionUrl,
  cloneBlockedReason,
  deleteAllowed,
  editActionUrl,
  editBlockedReason,
  mayCancel,
  mayDelete,
  mayPublish,
  maySeeEvents,
  publishAllowed,
  simulationUrl,
  summaryUrl,
  suspectEventsUrl,
} from '@/features/jobs/predicates';
import { dialogs } from '@/features/jobs/dialogs';
import { StatusCell, ResultBadge, TimeCell } from './badges';
import { ActionMenu, type MenuEntry } from '@/ui/action-menu';
import { Expander } from './tree-grid';

/** The six columns: Job Id, Job Name, Job Status, Ran By, Time Started, row actions. */
export const JOB_COLUMNS = 'minmax(7.5rem, 0.7fr) minmax(12rem, 2.2fr) minmax(7rem, 0.9fr) minmax(8rem, 1fr) minmax(8.5rem, 1fr) 2.5rem';

const run = (id: string, args?: unknown) => void commands.execute(id, args, 'menu').catch(() => undefined);

export interface RowEnv {
  permissions: ReadonlySet<Permission>;
  /** Navigation inside the workbench (opens or focuses a pane). */
  openUrl(url: string): void;
  /** Makes the row the focused one of its pane (before a command that reads the focused row). */
  activate(key: string): void;
  /** Job list only. */
  selection?: { selected: readonly number[]; toggle(id: number): void };
}

const indent = (level: number) => ({ paddingLeft: `${(level - 1) * 1.25}rem` });

export function jobMenuEntries(job: Pick<JobListItem, 'id' | 'job_status' | 'simulation' | 'action'>, env: RowEnv, inList: boolean): MenuEntry[] {
  const p = env.permissions;
  const entries: MenuEntry[] = [
    { label: 'View Job Result', onSelect: () => env.openUrl(`/jobs/${job.id}`) },
    { label: 'Job Summary Report', onSelect: () => env.openUrl(summaryUrl([job.id])), hotkey: 'Shift+S' },
  ];
  if (inList) entries.push({ label: 'Open in a New Pane Beside', onSelect: () => run('jobs.openBeside', { id: job.id }), hotkey: 'O' });
  const sim = simulationUrl(job);
  if (sim) entries.push({ label: job.simulation ? 'Open Simulation' : 'Open Action', onSelect: () => env.openUrl(sim), hotkey: 'S' });
  if (mayPublish(p)) entries.push({ label: 'Publish Job Result', onSelect: () => run('jobs.publish', { job_ids: [job.id] }), disabled: !publishAllowed(p, job.job_status), reason: 'Only finished jobs can be published.', hotkey: 'P', separatorBefore: true });
  if (mayDelete(p)) entries.push({ label: 'Delete', onSelect: () => run('jobs.delete', { job_ids: [job.id] }), disabled: !deleteAllowed(p, job.job_status), reason: 'Only finished jobs can be deleted.', hotkey: 'Del', separatorBefore: !mayPublish(p) });
  if (mayCancel(p)) entries.push({ label: 'Cancel', onSelect: () => run('jobs.cancel', { id: job.id }), disabled: !cancelAllowed(p, job.job_status), reason: 'This job can no longer be cancelled.', hotkey: 'C' });
  return entries;
}

function actionMenuEntries(a: JobAction, key: string, env: RowEnv): MenuEntry[] {
  const p = env.permissions;
  // Always shown; disabled with the reason when the role or the action does not allow it (section 6).
  const editBlocked = editBlockedReason(p, a);
  const cloneBlocked = cloneBlockedReason(p, a);
  const entries: MenuEntry[] = [
    { label: 'Edit Action', onSelect: () => env.openUrl(editActionUrl(a)), disabled: editBlocked !== null, ...(editBlocked ? { reason: editBlocked } : {}) },
    { label: 'Clone', onSelect: () => env.openUrl(cloneActionUrl(a)), disabled: cloneBlocked !== null, ...(cloneBlocked ? { reason: cloneBlocked } : {}) },
  ];
  if (maySeeEvents(p)) {
    entries.push({ label: 'View Events', onSelect: () => ((dialogs.events = { jobActionId: a.id, name: a.name }), env.activate(key)), hotkey: 'V', separatorBefore: true });
    entries.push({ label: 'Suspicious Events', onSelect: () => window.open(suspectEventsUrl(a.id), '_blank', 'noopener'), disabled: a.suspect_events === 0, reason: 'No suspicious events.', hotkey: 'Shift+V' });
  }
  return entries;
}

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
        <ActionMenu label={`Actions for job ${j.id}`} button={<span aria-hidden="true">⋯</span>} entries={jobMenuEntries(j, env, !!env.selection)} />
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
  const entries = actionMenuEntries(a, row.key, env);
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
        {canSee && a.events > 0 ? (
          <button type="button" className="text-accent hover:underline" onClick={() => ((dialogs.events = { jobActionId: a.id, name: a.name }), env.activate(row.key))}>
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
        {entries.length > 0 && <ActionMenu label={`Actions for ${a.name}`} button={<span aria-hidden="true">⋯</span>} entries={entries} />}
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
