import type { Permission } from '@/api/contracts/permissions';
import { canCancelJob, canCloneAction, canDeleteJob, canEditAction, canPublishJob, type JobAction } from '@/api/contracts/jobs';

/**
 * What a user may do with a job or a job action (section 6), as pure functions of their permissions and
 * the row's state. Buttons, menus and commands all ask these, so they cannot disagree.
 */

type Perms = ReadonlySet<Permission>;

export const mayPublish = (p: Perms) => p.has('jobs.publish');
export const mayDelete = (p: Perms) => p.has('jobs.destroy');
export const mayCancel = (p: Perms) => p.has('jobs.cancel');
export const maySeeEvents = (p: Perms) => p.has('integrationEvents.all');
/** Edit and Clone open the action form, which needs the create permission. */
export const mayEditActions = (p: Perms) => p.has('create_action_permission');

export const cancelAllowed = (p: Perms, status: string) => mayCancel(p) && canCancelJob(status);
export const deleteAllowed = (p: Perms, status: string) => mayDelete(p) && canDeleteJob(status);
export const publishAllowed = (p: Perms, status: string) => mayPublish(p) && canPublishJob(status);

/** Why Edit Action is disabled for a job action, or null when it is enabled (shown, never hidden: section 6). */
export function editBlockedReason(p: Perms, a: Pick<JobAction, 'disabled' | 'sim_action_vid' | 'sim_action_id'>): string | null {
  if (!mayEditActions(p)) return 'Your role does not allow editing Actions.';
  if (a.disabled) return 'This action is disabled.';
  if (a.sim_action_id === null) return 'This action is no longer in the library.';
  if (!canEditAction(a)) return 'Vendor content (VID starting with A1) cannot be edited.';
  return null;
}

/** Why Clone is disabled for a job action, or null when it is enabled. */
export function cloneBlockedReason(p: Perms, a: Pick<JobAction, 'disabled' | 'sim_action_id'>): string | null {
  if (!mayEditActions(p)) return 'Your role does not allow cloning Actions.';
  if (a.disabled) return 'This action is disabled.';
  if (!canCloneAction(a)) return 'This action is no longer in the library.';
  return null;
}

/** Edit Action's URL: cloud actions have their own form (JOB-004). */
export const editActionUrl = (a: Pick<JobAction, 'sim_action_id' | 'action_type'>) =>
  a.action_type === 'cloud' ? `/manage_sims/actions/cloud_action/${a.sim_action_id}/edit` : `/manage_sims/actions/${a.sim_action_id}/edit`;
export const cloneActionUrl = (a: Pick<JobAction, 'sim_action_id'>) => `/manage_sims/actions/${a.sim_action_id}/clone`;
export const suspectEventsUrl = (jobActionId: number) => `/suspect_events?job_action_id=${jobActionId}`;
export const summaryUrl = (ids: readonly number[]) => `/reports/summary?${ids.map((id) => `job_ids[]=${id}`).join('&')}`;

/** The pane of a job's simulation (or of its single action). */
export function simulationUrl(j: { simulation: { vid: string; sim_type: string } | null; action: { vid: string } | null }): string | null {
  if (j.simulation) return `/simulation/${encodeURIComponent(j.simulation.vid)}?sim_type=${j.simulation.sim_type}`;
  if (j.action) return `/manage_sims/action/${encodeURIComponent(j.action.vid)}`;
  return null;
}
