/** Messages the director and the workbench share, and which approve buttons a user sees. */
import { type ActionType } from '../vocabulary';
import type { PreviewCommon } from './preview';

// ---- Messages the director and the workbench share ----

export const LIBRARY_MESSAGES = {
  staleVersion: (seen: number, now: number) =>
    `This Action changed since you opened it (you reviewed version ${seen}; it is now version ${now}). Review the new version before approving it.`,
  staleEdit: 'This Action was changed by someone else since you opened it. Reload it, then make your change again.',
  alreadyApproved: 'This Action is already approved.',
  maliciousIneligible: 'This Action is not eligible for approval because it has a file attached that is restricted as malicious.',
  pendingFile: 'A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.',
  requiresProtected: 'This Action requires a Protected Theater actor, so it cannot be approved to run anywhere.',
  cloudRequired: 'Cloud Actions are approved with required=false.',
  rejectApproved: 'Only Actions awaiting approval can be rejected.',
  vendorEdit: 'Vendor Actions cannot be renamed or re-described; their notes can be edited.',
  rejectConfirm: 'Are you sure you want to reject this Action?',
  noPreviewSleep: 'No preview available for Sleep Actions.',
  logUnavailable: 'Log output unavailable',
  fileNotPending: 'Only files pending approval can be decided here.',
} as const;

/** Which approve buttons a user sees for an Action (actions.md sections 4 and 5). */
export function approvalVariants(
  p: Pick<PreviewCommon, 'approved' | 'require_protected' | 'eligible_for_approval' | 'userPermissions'> & { action_type: ActionType },
): ('anywhere' | 'protected' | 'cloud')[] {
  const perms = p.userPermissions;
  const cloud = p.action_type === 'cloud';
  if (p.approved || !perms.approve || !(cloud ? perms.cloudApproval : perms.endpointApproval)) return [];
  if (cloud) return ['cloud'];
  return p.require_protected ? ['protected'] : ['anywhere', 'protected'];
}

export const APPROVE_LABELS = {
  anywhere: 'Approve and Allow Anywhere',
  protected: 'Approve and Require Protected Theater',
  cloud: 'Approve',
} as const;
