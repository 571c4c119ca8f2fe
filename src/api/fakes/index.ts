/**
 * Deterministic demo data for Vigil: one generator shared by unit tests, MSW handlers and the
 * director's demo seed. Pure TypeScript without Node or DOM APIs. The same seed and options always
 * give the same data; rows carry the database column names of server/db/migrations/002_domain.sql.
 */
import { CATALOG, buildActions } from './actions';
import { buildDetectionContent } from './alerts';
import { buildDimensionDefaults, buildDimensions } from './dimensions';
import { buildFiles } from './files';
import { buildJobs } from './jobs';
import { ACTION_USER_PROFILES, INTEGRATIONS, buildNetwork } from './network';
import { Rng } from './random';
import { buildSimulations } from './simulations';
import { buildTags } from './tags';
import type { ActionFileRow, DemoData, FakeUser, FileLibraryRow } from './types';

export * from './types';
export { OPEN_RULESET_SOURCE } from './alerts';

/** Fixed reference time, so data generated without `now` is identical on every run. */
export const DEFAULT_NOW = '2026-11-20T12:00:00.000Z';

/** The demo users the director creates (server/seed/users.ts), in creation order. */
export const DEMO_USERS: readonly FakeUser[] = [
  { id: 1, email: 'admin@example.com', first_name: 'Ada', last_name: 'Admin', role: 'admin' },
  { id: 2, email: 'approver@example.com', first_name: 'Avery', last_name: 'Approver', role: 'approver' },
  { id: 3, email: 'operator@example.com', first_name: 'Oscar', last_name: 'Operator', role: 'operator' },
  { id: 4, email: 'viewer@example.com', first_name: 'Vera', last_name: 'Viewer', role: 'viewer' },
];

export interface DemoOptions {
  /** Reference "now" (ISO string or ms); every timestamp lies before it. Default DEFAULT_NOW. */
  now?: string | number;
  /** How many jobs to generate (default 320). */
  jobs?: number;
  /** User ids that author content and run jobs (default: the admin, approver and operator of DEMO_USERS). An empty list makes every job a 'Scheduled Process'. */
  userIds?: readonly number[];
}

function attachmentsByAction(links: readonly ActionFileRow[], library: readonly FileLibraryRow[]): Map<number, string[]> {
  const names = new Map(library.map((f) => [f.id, f.orig_file_name]));
  const out = new Map<number, string[]>();
  for (const l of links) out.set(l.action_id, [...(out.get(l.action_id) ?? []), names.get(l.file_id) ?? '']);
  return out;
}

export function generateDemoData(seed = 1, opts: DemoOptions = {}): DemoData {
  const now = typeof opts.now === 'number' ? opts.now : Date.parse(opts.now ?? DEFAULT_NOW);
  if (Number.isNaN(now)) throw new Error(`invalid now: ${String(opts.now)}`);
  const userIds = opts.userIds ?? [1, 2, 3];
  const root = new Rng(seed);
  const rng = (label: string) => root.fork(label);

  const tagSet = buildTags();
  const dims = buildDimensions();
  const network = buildNetwork(rng('network'), now, tagSet.id);
  const files = buildFiles(rng('files'), now, userIds, tagSet.id, (name) => dims.id('os_platform', name));
  const profileId = (name: string) => {
    const p = ACTION_USER_PROFILES.find((x) => x.friendly_name === name);
    if (!p) throw new Error(`unknown action user profile ${name}`);
    return p.id;
  };
  const actionSet = buildActions({ rng: rng('actions'), now, userIds, tagId: tagSet.id, dims, files, profileId });
  const detection = buildDetectionContent(rng('alerts'), actionSet.actions, (id) => CATALOG[id - 1]?.techniques ?? []);
  const sims = buildSimulations(rng('simulations'), now, userIds, actionSet.id, tagSet.id);
  const jobs = buildJobs({
    rng: rng('jobs'),
    now,
    count: opts.jobs ?? 320,
    userIds,
    actions: actionSet.actions,
    sims,
    nodes: network.nodes,
    devices: network.devices,
    integrations: INTEGRATIONS,
    profiles: ACTION_USER_PROFILES,
    attachments: attachmentsByAction(actionSet.action_files, files.file_library),
  });

  return {
    users: DEMO_USERS.map((u) => ({ ...u })),
    tags: tagSet.tags,
    tag_tactics: tagSet.tag_tactics,
    dimensions: dims.dimensions,
    dimension_defaults: buildDimensionDefaults(dims),
    action_user_profiles: ACTION_USER_PROFILES.map((p) => ({ ...p })),
    actions: actionSet.actions,
    action_tags: actionSet.action_tags,
    action_dimensions: actionSet.action_dimensions,
    file_library: files.file_library,
    file_tags: files.file_tags,
    action_files: actionSet.action_files,
    detection_alerts: detection.detection_alerts,
    signatures: detection.signatures,
    ...sims,
    ...network,
    integrations: INTEGRATIONS.map((i) => ({ ...i })),
    ...jobs,
  };
}
