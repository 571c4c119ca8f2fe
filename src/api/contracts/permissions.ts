/**
 * Roles and the permission names the specs use. Shared by the director (which refuses calls a role
 * lacks) and the workbench (which hides or disables the same things), so the two cannot disagree.
 */
export const ROLES = ['admin', 'approver', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'create_action_permission',
  'approve_action_permission',
  'approve',
  'endpointApproval',
  'cloudApproval',
  'jobs.run',
  'jobs.publish',
  'jobs.destroy',
  'jobs.cancel',
  'integrationEvents.all',
  'library.edit',
  'simulations.back',
  'simulations.description',
  'simulations.select_nodes',
  'simulations.monitor',
  'simulations.clone_edit',
  'simulations.edit',
  'monitors.edit',
  'actors.manage',
  'tags.edit',
  'users.manage',
  'brt_auth',
  /** Sharing a saved script with everyone (operators and up; a viewer's scripts stay private). */
  'scripts.share',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const viewer: Permission[] = ['simulations.back', 'simulations.description'];
const operator: Permission[] = [
  ...viewer,
  'create_action_permission',
  'jobs.run',
  'jobs.publish',
  'jobs.cancel',
  'integrationEvents.all',
  'library.edit',
  'simulations.select_nodes',
  'simulations.monitor',
  'simulations.clone_edit',
  'simulations.edit',
  'monitors.edit',
  'tags.edit',
  'scripts.share',
];
const approver: Permission[] = [...operator, 'approve_action_permission', 'approve', 'endpointApproval', 'cloudApproval', 'jobs.destroy'];
const admin: Permission[] = [...PERMISSIONS];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = { admin, approver, operator, viewer };

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  approver: 'Approver',
  operator: 'Operator',
  viewer: 'Viewer',
};

export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
