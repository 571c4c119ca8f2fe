/**
 * One Action of the action library as the detail panel shows it (actions.md section 6): the stored
 * row, the auth token of in-place edits, who may approve, the attached files, tags, latest jobs,
 * alerts, signatures, simulations and approval history, and whether it may be approved now.
 * The preview is in preview.ts.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import { isoCol, jobSummaries } from './job-summaries';
import type { ActiveSession } from '../auth/sessions';
import { LIBRARY_MESSAGES, isVendorVid, type ActionLibraryDetail, type ApprovalEvent, type AttachedFile, type DetectionAlert, type JobSummary, type LibraryTag, type Signature, type SimulationRef } from '../../src/api/contracts/library';
import type { Permission } from '../../src/api/contracts/permissions';
import { DIMENSION_TYPES, type ActionType, type DimensionType, type FileRestriction } from '../../src/api/contracts/vocabulary';

/** The licence the detail panel sends back with in-place edits (actions.md section 6). */
export const DEFAULT_BRT_LICENSE = 'VIGIL-COMMUNITY';
export const LATEST_JOBS_SHOWN = 5;

export interface ActionRecord {
  id: number;
  vid: string;
  name: string;
  description: string;
  orig_description: string;
  notes: string;
  action_type: ActionType;
  version: number;
  approved: boolean;
  disabled: boolean;
  decommissioned: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  timeout_ms: number | null;
  details: Record<string, unknown>;
  event_filter_rules: unknown[];
  created_at: string;
  updated_at: string;
  modified_at: string;
}

const ACTION_COLUMNS = `id, vid, name, description, orig_description, notes, action_type, version, approved, disabled, decommissioned,
  require_protected, approve_anywhere, monitor_connections, timeout_ms, details, event_filter_rules,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
  to_char(coalesce(modified_at, updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as modified_at`;


export async function findAction(db: Db, ref: { id?: number | undefined; vid?: string | undefined }, lock = false): Promise<ActionRecord> {
  const rows =
    ref.id !== undefined
      ? await db.query<ActionRecord>(`select ${ACTION_COLUMNS} from actions where id = $1${lock ? ' for update' : ''}`, [ref.id])
      : await db.query<ActionRecord>(`select ${ACTION_COLUMNS} from actions where vid = $1 or vid = upper($1)${lock ? ' for update' : ''}`, [ref.vid ?? '']);
  const row = rows[0];
  if (!row) throw notFound(ref.id !== undefined ? `Action ${ref.id} was not found.` : `Action ${ref.vid ?? ''} was not found.`);
  return row;
}

/** Proof that an in-place edit is based on this version of the Action, for this session. */
export function authTokenFor(session: ActiveSession, actionId: number, version: number): string {
  return crypto.createHmac('sha256', session.csrfToken).update(`action:${actionId}:v${version}`).digest('base64url');
}

export function authTokenMatches(session: ActiveSession, actionId: number, version: number, sent: string): boolean {
  const expected = Buffer.from(authTokenFor(session, actionId, version));
  const got = Buffer.from(sent);
  return expected.length === got.length && crypto.timingSafeEqual(expected, got);
}

const has = (session: ActiveSession, p: Permission) => session.user.permissions.includes(p);

export function approvalPermissions(session: ActiveSession) {
  return { approve: has(session, 'approve'), endpointApproval: has(session, 'endpointApproval'), cloudApproval: has(session, 'cloudApproval') };
}

/** approve plus endpointApproval, or cloudApproval for cloud Actions (actions.md sections 5 and 6). */
export function mayDecide(session: ActiveSession, actionType: string): boolean {
  const p = approvalPermissions(session);
  return p.approve && (actionType === 'cloud' ? p.cloudApproval : p.endpointApproval);
}

export async function loadFiles(db: Db, actionId: number): Promise<AttachedFile[]> {
  return db.query<AttachedFile>(
    `select f.id, f.orig_file_name, f.sha256sum, f.file_restrictions, af.variable_name, af.details
       from action_files af join file_library f on f.id = af.file_id where af.action_id = $1 order by af.position, af.id`,
    [actionId],
  );
}

async function loadTagsOf(db: Db, actionId: number): Promise<LibraryTag[]> {
  const tags = await db.query<{ id: number; name: string; tag_type: string }>(
    'select t.id, t.name, t.tag_type from action_tags at join tags t on t.id = at.tag_id where at.action_id = $1 order by t.tag_type, t.name',
    [actionId],
  );
  const dims = await db.query<{ id: number; name: string; dimension_type: DimensionType }>(
    'select d.id, d.name, ad.dimension_type from action_dimensions ad join dimensions d on d.id = ad.dimension_id where ad.action_id = $1',
    [actionId],
  );
  dims.sort((a, b) => DIMENSION_TYPES.indexOf(a.dimension_type) - DIMENSION_TYPES.indexOf(b.dimension_type));
  return [
    ...tags.map((t) => ({ id: t.id, name: t.name, tagType: t.tag_type })),
    ...dims.map((d) => ({ id: d.id, name: d.name, tagType: 'dimensions', dimension: d.dimension_type })),
  ];
}

export async function latestJobs(db: Db, actionId: number): Promise<{ latest_jobs: JobSummary[]; total_jobs: number }> {
  const latest = await jobSummaries(db, `j.id in (select distinct job_id from job_actions where action_id = $1 order by job_id desc limit ${LATEST_JOBS_SHOWN})`, [actionId], LATEST_JOBS_SHOWN);
  const [count] = await db.query<{ n: number }>('select count(distinct job_id)::int as n from job_actions where action_id = $1', [actionId]);
  return { latest_jobs: latest, total_jobs: count?.n ?? 0 };
}

export async function loadAlerts(db: Db, actionId: number): Promise<DetectionAlert[]> {
  return db.query<DetectionAlert>('select source, message, source_identifier from detection_alerts where action_id = $1 order by id', [actionId]);
}

export async function loadSignatures(db: Db, actionId: number): Promise<Signature[]> {
  return db.query<Signature>('select id, text from signatures where action_id = $1 order by id', [actionId]);
}

export async function loadSimulations(db: Db, actionId: number): Promise<SimulationRef[]> {
  return db.query<SimulationRef>(
    `select distinct s.id, s.vid, s.name, ${isoCol('s.created_at')} as created_at, s.simulation_type
       from simulation_step_actions ssa join simulation_steps st on st.id = ssa.step_id join simulations s on s.id = st.simulation_id
      where ssa.action_id = $1 order by s.vid`,
    [actionId],
  );
}

export async function loadHistory(db: Db, actionId: number): Promise<ApprovalEvent[]> {
  const rows = await db.query<ApprovalEvent & { first_name: string | null; last_name: string | null }>(
    `select e.id, e.event, e.action_id, e.action_vid, e.action_version, e.file_id, e.file_name, e.user_email, u.first_name, u.last_name,
            ${isoCol('e.created_at')} as created_at
       from action_approval_events e left join users u on u.id = e.user_id where e.action_id = $1 order by e.id desc limit 100`,
    [actionId],
  );
  return rows.map(({ first_name, last_name, ...e }) => ({ ...e, user_name: `${first_name ?? ''} ${last_name ?? ''}`.trim() || e.user_email }));
}

export async function buildDetail(db: Db, session: ActiveSession, action: ActionRecord, brtLicense: string): Promise<ActionLibraryDetail> {
  const [tags, jobs, detection_alerts, verodin_signatures, simulations, files, history] = [
    await loadTagsOf(db, action.id),
    await latestJobs(db, action.id),
    await loadAlerts(db, action.id),
    await loadSignatures(db, action.id),
    await loadSimulations(db, action.id),
    await loadFiles(db, action.id),
    await loadHistory(db, action.id),
  ];
  const vendor = isVendorVid(action.vid);
  const counts = fileCounts(files);
  const reason = ineligibleReason(action, counts);
  return {
    id: action.id,
    vid: action.vid,
    name: action.name,
    description: action.description,
    orig_description: action.orig_description,
    notes: action.notes,
    version: action.version,
    date_created: action.created_at,
    date_modified: action.modified_at,
    action_type: action.action_type,
    approved: action.approved,
    disabled: action.disabled,
    decommissioned: action.decommissioned,
    require_protected: needsProtected(action, counts.malicious),
    approve_anywhere: action.approve_anywhere,
    monitor_connections: action.monitor_connections,
    vendor,
    vendor_logo: vendor ? '/favicon.svg' : null,
    tags,
    latest_jobs: jobs.latest_jobs,
    total_jobs: jobs.total_jobs,
    detection_alerts,
    verodin_signatures,
    simulations,
    files,
    history,
    pending_files: counts.pending,
    malicious_files: counts.malicious,
    eligible_for_approval: reason === null,
    ineligible_reason: reason,
    auth_token: authTokenFor(session, action.id, action.version),
    brt_license: brtLicense,
    userPermissions: { edit: has(session, 'create_action_permission'), ...approvalPermissions(session) },
  };
}


export function fileCounts(files: readonly { file_restrictions: FileRestriction }[]) {
  return {
    pending: files.filter((f) => f.file_restrictions === 'pending_approval').length,
    malicious: files.filter((f) => f.file_restrictions === 'restricted_malicious').length,
  };
}

/** A host_cli Action with network monitoring or a malicious file must run in a Protected Theater. */
export function needsProtected(a: Pick<ActionRecord, 'require_protected' | 'monitor_connections' | 'action_type'>, maliciousFiles: number): boolean {
  return a.require_protected || (a.action_type === 'host_cli' && (a.monitor_connections || maliciousFiles > 0));
}

/** Why an Action cannot be approved now, or null. */
export function ineligibleReason(a: Pick<ActionRecord, 'action_type'>, counts: { pending: number; malicious: number }): string | null {
  if (a.action_type === 'cloud' && counts.malicious > 0) return LIBRARY_MESSAGES.maliciousIneligible;
  if (a.action_type === 'cloud' && counts.pending > 0) return LIBRARY_MESSAGES.pendingFile;
  return null;
}
