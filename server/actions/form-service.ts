/**
 * Create, update and load Actions for the Add/Edit Action form (actions.md sections 3-8). Validation
 * uses the shared yup schemas of src/api/contracts/action-form.ts, then checks what only the database
 * knows (dimension nodes, files, tags, profiles, DNS servers, VID uniqueness). Failures answer 400 with
 * the spec's flash text and errors under the spec's keys ({type}_action.{field}, web_action_steps.{i},
 * socket_action_steps.{i}, sim_action.{field}, vid, trees.{i}.id, tags.*).
 */
import * as yup from 'yup';
import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';
import type { SessionUser } from '../../src/api/contracts/session';
import { MSG, VID_PATTERN, actionFormSchema, errorKeyFor, sleepDurationError, typeKey, type ActionFormPayload, type CloudFields, type EmailFields, type FileDisplay, type FileTransferFields, type HostCliFields, type LoadedAction, type PcapFields, type SaveAnswer, type TypeFieldsByType } from '../../src/api/contracts/action-form';
import { ACTION_TYPES, DIMENSION_TYPES, type ActionType, type FileRestriction } from '../../src/api/contracts/vocabulary';

export type Errors = Record<string, string[]>;

export class ActionValidationError extends HttpError {
  constructor(message: string, errors: Errors) {
    super(400, message, { errors });
  }
}

function addError(errors: Errors, key: string, message: string) {
  const list = (errors[key] ??= []);
  if (!list.includes(message)) list.push(message);
}

/** Vendor content: VID A1xx-... (see src/api/fakes/catalog.ts). */
export const isVendorVid = (vid: string) => /^A1\d\d-/.test(vid);

interface FileRow {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
  size: number;
}

/** Validated input plus what the checks looked up. */
export interface ValidAction {
  payload: ActionFormPayload;
  type: ActionType;
  files: { file_id: number; position: number; variable_name: string | null; details: Record<string, unknown> }[];
  fileRows: Map<number, FileRow>;
  tagIds: number[];
  newUserTags: string[];
  vidOverride: string | null;
}

function typeOf(body: unknown): ActionType {
  const sim = body && typeof body === 'object' ? (body as { sim_action?: unknown }).sim_action : undefined;
  const t = sim && typeof sim === 'object' ? (sim as { action_type?: unknown }).action_type : undefined;
  if (t === undefined || t === null || t === '') throw new ActionValidationError(MSG.selectType, { 'sim_action.action_type': ['Select an Action Type.'] });
  if (typeof t !== 'string' || !(ACTION_TYPES as readonly string[]).includes(t)) {
    throw new ActionValidationError(MSG.saveFailed, { 'sim_action.action_type': [`must be one of ${ACTION_TYPES.join(', ')}`] });
  }
  return t as ActionType;
}

/** The files a payload attaches, in order, with their per-file details. */
function attachedFiles(type: ActionType, p: ActionFormPayload): ValidAction['files'] {
  switch (type) {
    case 'host_cli':
      return (p.host_cli_action?.files ?? []).map(({ file_id, ...details }, position) => ({ file_id, position, variable_name: null, details }));
    case 'email':
      return (p.email_action?.files ?? []).map(({ file_id, ...details }, position) => ({ file_id, position, variable_name: null, details }));
    case 'cloud':
      return (p.cloud_action?.files ?? []).map(({ file_id, variable_name }, position) => ({ file_id, position, variable_name, details: {} }));
    case 'file_transfer': {
      const id = p.file_transfer_action?.file_transfer_library_id;
      return id ? [{ file_id: id, position: 0, variable_name: null, details: {} }] : [];
    }
    default:
      return [];
  }
}

function filesKey(type: ActionType, index: number): string {
  return type === 'file_transfer' ? 'file_transfer_action.file_transfer_library_id' : `${typeKey(type)}.files.${index}.file_id`;
}

/** Validates a create or update body; throws ActionValidationError (400) with every problem found. */
export async function validateAction(db: Db, body: unknown, user: SessionUser, opts: { existingId?: number; existingDetails?: Record<string, unknown> } = {}): Promise<ValidAction> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body is missing or is not an object.');
  const type = typeOf(body);
  const errors: Errors = {};
  let payload: ActionFormPayload;
  try {
    payload = actionFormSchema(type).validateSync(body, { abortEarly: false, stripUnknown: false }) as ActionFormPayload;
  } catch (e) {
    if (!(e instanceof yup.ValidationError)) throw e;
    for (const inner of e.inner.length ? e.inner : [e]) addError(errors, inner.path ? errorKeyFor(inner.path) : 'base', inner.message);
    throw new ActionValidationError(MSG.saveFailed, errors);
  }

  const perms = new Set(user.permissions);
  const key = typeKey(type);

  // Sleep: the duration is the Action's timeout.
  if (type === 'sleep') {
    const e = sleepDurationError(payload);
    if (e) addError(errors, 'sim_action.timeout_ms', e);
  }

  // VID override: brt_auth only, the VID shape, unique.
  const vidOverride = payload.system_override?.vid?.trim() || null;
  if (vidOverride) {
    if (!perms.has('brt_auth')) addError(errors, 'vid', 'can only be set by a user with brt_auth');
    else if (!VID_PATTERN.test(vidOverride)) addError(errors, 'vid', 'must look like A000-1234');
    else {
      const taken = await db.query<{ id: number }>('select id from actions where vid = $1 and id <> $2', [vidOverride, opts.existingId ?? 0]);
      if (taken.length) addError(errors, 'vid', 'has already been taken');
    }
  }

  // Dimensions: one non-root node of the right tree per entry.
  const treeIds = payload.trees.map((t) => t.id).filter((x): x is number => typeof x === 'number');
  const nodes = treeIds.length
    ? await db.query<{ id: number; type: string; parent_id: number | null }>('select id, type, parent_id from dimensions where id = any($1::int[])', [treeIds])
    : [];
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  payload.trees.forEach((t, i) => {
    if (t.id == null) return;
    const n = nodeById.get(t.id);
    const dim = DIMENSION_TYPES[i]!;
    if (!n) addError(errors, `trees.${i}.id`, 'is not a dimension value');
    else if (n.type !== dim) addError(errors, `trees.${i}.id`, `is not a value of ${dim}`);
    else if (n.parent_id === null) addError(errors, `trees.${i}.id`, MSG.mustBeFilled);
  });

  // DNS server and run-as profile.
  if (type === 'dns' && payload.dns_action?.dns_server_id != null) {
    const rows = await db.query('select 1 from dns_servers where id = $1', [payload.dns_action.dns_server_id]);
    if (!rows.length) addError(errors, 'dns_action.dns_server_id', 'is not a DNS server');
  }
  if (type === 'host_cli' && payload.host_cli_action?.action_user_profile_id != null) {
    const rows = await db.query('select 1 from action_user_profiles where id = $1', [payload.host_cli_action.action_user_profile_id]);
    if (!rows.length) addError(errors, 'host_cli_action.action_user_profile_id', 'is not a run-as user profile');
  }

  // Files: existing, never twice, one for file_transfer, no malicious file on cloud.
  const files = attachedFiles(type, payload);
  const ids = files.map((f) => f.file_id);
  const fileRows = new Map(
    (ids.length
      ? await db.query<FileRow>('select id, orig_file_name, sha256sum, file_restrictions, size from file_library where id = any($1::int[])', [ids])
      : []
    ).map((r) => [r.id, r]),
  );
  const seen = new Set<number>();
  files.forEach((f, i) => {
    const k = filesKey(type, i);
    const row = fileRows.get(f.file_id);
    if (!row) addError(errors, k, 'is not a file of the library');
    else if (seen.has(f.file_id)) addError(errors, k, MSG.duplicateAttach);
    else if (type === 'cloud' && row.file_restrictions === 'restricted_malicious') addError(errors, k, MSG.cloudIneligible);
    seen.add(f.file_id);
  });

  // host_cli: the randomize file column is brt_auth's; others may only keep what a file already had.
  if (type === 'host_cli' && !perms.has('brt_auth') && files.some((f) => f.details.randomize_file === true)) {
    const kept = opts.existingId
      ? new Set((await db.query<{ file_id: number }>(`select file_id from action_files where action_id = $1 and details->>'randomize_file' = 'true'`, [opts.existingId])).map((r) => r.file_id))
      : new Set<number>();
    files.forEach((f, i) => {
      if (f.details.randomize_file === true && !kept.has(f.file_id)) addError(errors, `host_cli_action.files.${i}.randomize_file`, 'can only be set by a user with brt_auth');
    });
  }

  // Cloud: Approve Now needs the permission and an eligible Action.
  if (type === 'cloud' && payload.cloud_action?.approve_anywhere) {
    if (!(perms.has('approve_action_permission') && perms.has('approve') && perms.has('cloudApproval'))) {
      addError(errors, 'cloud_action.approve_anywhere', 'Approve Now requires the approve permission for cloud Actions');
    } else if (files.some((f) => fileRows.get(f.file_id)?.file_restrictions === 'pending_approval')) {
      addError(errors, 'cloud_action.approve_anywhere', MSG.cloudPending);
    }
  }

  // host_cli protection: monitor connections or a malicious file force Require Protected Theater.
  if (type === 'host_cli' && payload.host_cli_action) {
    const h = payload.host_cli_action;
    const malicious = files.some((f) => fileRows.get(f.file_id)?.file_restrictions === 'restricted_malicious');
    if (h.monitor_connections || malicious) {
      h.require_protected = true;
      h.approve_anywhere = false;
    }
  }

  // PCAP: a new PCAP Action comes from the upload flow.
  if ((type === 'pcap' || type === 'captive_ioc_pcap') && opts.existingId === undefined) {
    addError(errors, `${key}.upload`, 'PCAP Actions are created from an uploaded PCAP: use the PCAP upload (POST /manage_sims/upload/create_pcap_action).');
  }

  // Tags: verodin_tags must exist (verodin or mitre_attack, never file attachment tags); unknown user tags are created.
  const tagIds: number[] = [];
  const newUserTags: string[] = [];
  const verodin = uniq(payload.tags.verodin_tags.map((t) => t.trim()));
  if (verodin.length) {
    const rows = await db.query<{ id: number; name: string; code: string | null; tag_type: string }>(
      `select id, name, code, tag_type from tags where class_name in ('verodin', 'mitre_attack') and (name = any($1::text[]) or code = any($1::text[]))`,
      [verodin],
    );
    for (const name of verodin) {
      const row = rows.find((r) => (r.name === name || r.code === name) && r.tag_type !== 'file_attachment');
      if (row) tagIds.push(row.id);
      else addError(errors, 'tags.verodin_tags', MSG.invalidTag(name));
    }
  }
  const userTags = uniq(payload.tags.user_tags.map((t) => t.trim()));
  if (userTags.length) {
    const rows = await db.query<{ id: number; name: string }>(`select id, name from tags where class_name = 'user' and lower(name) = any($1::text[])`, [
      userTags.map((t) => t.toLowerCase()),
    ]);
    for (const name of userTags) {
      const row = rows.find((r) => r.name.toLowerCase() === name.toLowerCase());
      if (row) tagIds.push(row.id);
      else if (perms.has('tags.edit')) newUserTags.push(name);
      else addError(errors, 'tags.user_tags', MSG.invalidTag(name));
    }
  }

  if (Object.keys(errors).length) throw new ActionValidationError(MSG.saveFailed, errors);
  return { payload, type, files, fileRows, tagIds: uniq(tagIds), newUserTags, vidOverride };
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];

// ---------------------------------------------------------------------------------------------
// Payload <-> stored row.

interface Columns {
  name: string;
  description: string;
  timeout_ms: number | null;
  uac: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  details: Record<string, unknown>;
}

const nullIfEmpty = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

function columnsFor(v: ValidAction, existingDetails: Record<string, unknown> | undefined): Columns {
  const p = v.payload;
  const base = { name: p.sim_action.name.trim(), description: p.sim_action.desc, timeout_ms: p.sim_action.timeout_ms ?? null, uac: p.sim_action.uac ?? false };
  const flags = { require_protected: false, approve_anywhere: false, monitor_connections: false };
  switch (v.type) {
    case 'dns': {
      const d = p.dns_action!;
      return { ...base, ...flags, details: { query_type: d.query_type, domain: d.domain.trim(), dns_server_id: d.dns_server_id ?? null } };
    }
    case 'captive_dns': {
      const d = p.captive_dns_action!;
      return { ...base, ...flags, details: { query_type: d.query_type, query: d.query.trim(), response: d.response.trim() } };
    }
    case 'captive_ioc_url': {
      const d = p.captive_ioc_url_action!;
      return { ...base, ...flags, timeout_ms: d.timeout_ms, details: { urls: d.urls.map((u) => u.trim()) } };
    }
    case 'email': {
      const d = p.email_action!;
      return { ...base, ...flags, details: { subject: d.subject, body: d.body, mime_text_type: d.mime_text_type, block_matching_scheme: d.block_matching_scheme } };
    }
    case 'file_transfer': {
      const d = p.file_transfer_action!;
      const tunnel = d.tunnel_protocol;
      return {
        ...base,
        ...flags,
        details: {
          file_transfer_library_id: d.file_transfer_library_id,
          compare_transfer: d.compare_transfer,
          keep_after_compare: d.keep_after_compare,
          content_encoding: d.content_encoding.split(',').map((s) => s.trim()).filter(Boolean).join(','),
          user_agent: d.user_agent,
          method: d.method,
          app_layer: d.app_layer,
          target_port: d.target_port,
          tunnel_protocol: tunnel,
          tunnel_cidr: tunnel === 'icmp' || tunnel === 'ssh' || tunnel === 'dns' ? nullIfEmpty(d.tunnel_cidr) : null,
          dns_domain: tunnel === 'dns' ? nullIfEmpty(d.dns_domain) : null,
          dns_server_ip: tunnel === 'dns' ? nullIfEmpty(d.dns_server_ip) : null,
        },
      };
    }
    case 'socket': {
      const d = p.socket_action!;
      return { ...base, ...flags, details: { comm_type: d.comm_type, server_port: d.server_port, steps: d.steps } };
    }
    case 'website': {
      const d = p.website_action!;
      return { ...base, ...flags, details: { server_port: d.server_port, http_ver: d.http_ver, use_https: d.use_https, steps: d.steps } };
    }
    case 'host_cli': {
      const d = p.host_cli_action!;
      return {
        ...base,
        require_protected: d.require_protected,
        approve_anywhere: d.approve_anywhere,
        monitor_connections: d.monitor_connections,
        details: {
          action_user_profile_id: d.action_user_profile_id ?? null,
          require_run_as_interactive: d.action_user_profile_id == null ? false : d.require_run_as_interactive,
          delivery_wait_time: d.delivery_wait_time,
          delivery_failed_result: d.delivery_failed_result,
          destination_exists_result: d.destination_exists_result,
          shell: d.shell,
          raw_text: d.raw_text,
          cleanup_raw_text: d.cleanup_raw_text,
          separate_cleanup_shell: d.separate_cleanup_shell,
          automatic_file_cleanup: d.automatic_file_cleanup,
          execution_plan: d.execution_plan ?? null,
        },
      };
    }
    case 'port_scan': {
      const d = p.port_scan_action!;
      return { ...base, ...flags, details: { ports_list: d.ports_list.split(',').map((s) => s.trim()).join(','), sleep_timer: d.sleep_timer, randomize_scan: d.randomize_scan } };
    }
    case 'cloud': {
      const d = p.cloud_action!;
      return {
        ...base,
        ...flags,
        approve_anywhere: d.approve_anywhere,
        details: {
          inputs: d.inputs,
          outputs: d.outputs,
          scripts: d.scripts.map((s, i) => ({ ...s, script_type: i === 0 ? 'setup' : i === d.scripts.length - 1 && d.scripts.length > 1 ? 'cleanup' : (s.script_type ?? null) })),
        },
      };
    }
    case 'web_request':
      return { ...base, ...flags, details: { ...p.web_request_action! } };
    case 'pcap':
    case 'captive_ioc_pcap': {
      const d = (p[typeKey(v.type)] as PcapFields | undefined)!;
      return {
        ...base,
        ...flags,
        details: {
          upload: (existingDetails?.upload as number | null | undefined) ?? null,
          file: (existingDetails?.file as string | undefined) ?? '',
          attacker_ip: d.attacker_ip.trim(),
          destination_ip: d.destination_ip.trim(),
          bypass_http_check: d.bypass_http_check,
          anonymized_ip: d.anonymized_ip,
          anonymized_mac: d.anonymized_mac,
        },
      };
    }
    case 'sleep':
      return { ...base, ...flags, details: {} };
  }
}

/** Whether a saved Action may run without an approver: cloud only by Approve Now, host_cli never, others unless a file is pending. */
function approvedAfterSave(v: ValidAction, cols: Columns): boolean {
  const restrictions = v.files.map((f) => v.fileRows.get(f.file_id)?.file_restrictions);
  if (restrictions.includes('pending_approval')) return false;
  if (v.type === 'cloud') return cols.approve_anywhere && !restrictions.includes('restricted_malicious');
  if (v.type === 'host_cli') return false;
  return true;
}

async function nextVid(db: Db): Promise<string> {
  for (;;) {
    const [row] = await db.query<{ n: number }>(`select nextval('action_vid_seq')::int as n`);
    const vid = `A000-${row!.n}`;
    const taken = await db.query('select 1 from actions where vid = $1', [vid]);
    if (!taken.length) return vid;
  }
}

async function writeRelations(db: Db, actionId: number, v: ValidAction): Promise<void> {
  // Tags: keep file attachment tags (not edited by the form), replace the rest.
  const created: number[] = [];
  for (const name of v.newUserTags) {
    const [row] = await db.query<{ id: number }>(
      `insert into tags (name, class_name, tag_type, editable) values ($1, 'user', 'user', true)
         on conflict (class_name, name) do update set name = excluded.name returning id`,
      [name],
    );
    if (row) created.push(row.id);
  }
  await db.query(`delete from action_tags where action_id = $1 and tag_id in (select id from tags where tag_type <> 'file_attachment')`, [actionId]);
  const tagIds = uniq([...v.tagIds, ...created]);
  if (tagIds.length) await db.query('insert into action_tags (action_id, tag_id) select $1, unnest($2::int[]) on conflict do nothing', [actionId, tagIds]);

  await db.query('delete from action_dimensions where action_id = $1', [actionId]);
  const dims = v.payload.trees.map((t, i) => ({ type: DIMENSION_TYPES[i]!, id: t.id })).filter((d): d is { type: (typeof DIMENSION_TYPES)[number]; id: number } => d.id != null);
  if (dims.length) {
    await db.query('insert into action_dimensions (action_id, dimension_type, dimension_id) select $1, unnest($2::text[]), unnest($3::int[])', [
      actionId,
      dims.map((d) => d.type),
      dims.map((d) => d.id),
    ]);
  }

  await db.query('delete from action_files where action_id = $1', [actionId]);
  for (const f of v.files) {
    await db.query('insert into action_files (action_id, file_id, position, variable_name, details) values ($1, $2, $3, $4, $5::jsonb)', [
      actionId,
      f.file_id,
      f.position,
      f.variable_name,
      JSON.stringify(f.details),
    ]);
  }
}

async function snapshot(db: Db, actionId: number, version: number, payload: ActionFormPayload, userId: number): Promise<void> {
  const { lock_version: _lock, ...values } = payload;
  await db.query(
    `insert into action_versions (action_id, version, snapshot, saved_by) values ($1, $2, $3::jsonb, $4)
       on conflict (action_id, version) do update set snapshot = excluded.snapshot, saved_by = excluded.saved_by, saved_at = now()`,
    [actionId, version, JSON.stringify(values), userId],
  );
}

export async function createAction(db: Db, body: unknown, user: SessionUser): Promise<SaveAnswer> {
  const v = await validateAction(db, body, user);
  return db.transaction(async (tx) => {
    const cols = columnsFor(v, undefined);
    const vid = v.vidOverride ?? (await nextVid(tx));
    const approved = approvedAfterSave(v, cols);
    const [row] = await tx.query<{ id: number; vid: string; version: number; approved: boolean }>(
      `insert into actions (vid, name, description, orig_description, action_type, version, approved, require_protected, approve_anywhere,
                            monitor_connections, timeout_ms, uac, details, created_by)
       values ($1, $2, $3, $3, $4, 1, $5, $6, $7, $8, $9, $10, $11::jsonb, $12)
       returning id, vid, version, approved`,
      [vid, cols.name, cols.description, v.type, approved, cols.require_protected, cols.approve_anywhere, cols.monitor_connections, cols.timeout_ms, cols.uac, JSON.stringify(cols.details), user.id],
    );
    if (!row) throw new Error('insert returned no row');
    await writeRelations(tx, row.id, v);
    await snapshot(tx, row.id, 1, v.payload, user.id);
    return { ...row, notice: `Action ${row.vid} was successfully created.` };
  });
}

export async function updateAction(db: Db, id: number, body: unknown, user: SessionUser): Promise<SaveAnswer> {
  const [current] = await db.query<{ id: number; vid: string; version: number; action_type: ActionType; details: Record<string, unknown> }>(
    'select id, vid, version, action_type, details from actions where id = $1',
    [id],
  );
  if (!current) throw notFound(`Action ${id} does not exist.`);
  if (isVendorVid(current.vid) && !user.permissions.includes('brt_auth')) {
    throw new HttpError(403, `${current.vid} is vendor content and cannot be edited. Clone it to make your own version.`);
  }
  const bodyType = typeOf(body);
  const v = await validateAction(db, body, user, { existingId: id, ...(bodyType === current.action_type ? { existingDetails: current.details } : {}) });
  if ((v.type === 'pcap' || v.type === 'captive_ioc_pcap') && current.action_type !== v.type) {
    throw new ActionValidationError(MSG.saveFailed, { 'sim_action.action_type': ['cannot become a PCAP Action: PCAP Actions are created from an uploaded PCAP'] });
  }
  return db.transaction(async (tx) => {
    // Lock the row: two saves of one Action at once get consecutive versions, and a stale form a 409.
    const [locked] = await tx.query<{ version: number }>('select version from actions where id = $1 for update', [id]);
    if (!locked) throw notFound(`Action ${id} does not exist.`);
    if (v.payload.lock_version !== undefined && v.payload.lock_version !== locked.version) {
      throw new HttpError(409, `This Action was saved by someone else since you opened it (it is now version ${locked.version}). Reload it to see their changes, then make yours again.`, {
        errors: { base: [`now at version ${locked.version}`] },
        version: locked.version,
      });
    }
    const cols = columnsFor(v, v.type === current.action_type ? current.details : undefined);
    const approved = approvedAfterSave(v, cols);
    const [row] = await tx.query<{ id: number; vid: string; version: number; approved: boolean }>(
      `update actions set vid = coalesce($2, vid), name = $3, description = $4, action_type = $5, version = version + 1, approved = $6,
              require_protected = $7, approve_anywhere = $8, monitor_connections = $9, timeout_ms = $10, uac = $11, details = $12::jsonb,
              updated_at = now()
        where id = $1 returning id, vid, version, approved`,
      [id, v.vidOverride, cols.name, cols.description, v.type, approved, cols.require_protected, cols.approve_anywhere, cols.monitor_connections, cols.timeout_ms, cols.uac, JSON.stringify(cols.details)],
    );
    if (!row) throw notFound(`Action ${id} does not exist.`);
    await writeRelations(tx, id, v);
    await snapshot(tx, id, row.version, v.payload, user.id);
    return { ...row, notice: `Action ${row.vid} was successfully updated.` };
  });
}

// ---------------------------------------------------------------------------------------------
// Loading an Action into the form.

interface ActionRecord {
  id: number;
  vid: string;
  name: string;
  description: string;
  action_type: ActionType;
  version: number;
  approved: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  timeout_ms: number | null;
  uac: boolean;
  details: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

interface AttachedRow extends FileRow {
  position: number;
  variable_name: string | null;
  details: Record<string, unknown>;
}

const str = (v: unknown, d = '') => (typeof v === 'string' ? v : v == null ? d : String(v));
const numOrNull = (v: unknown) => (typeof v === 'number' ? v : v == null || v === '' ? null : Number(v));
const boolOf = (v: unknown, d = false) => (typeof v === 'boolean' ? v : d);

function typeFieldsOf(a: ActionRecord, files: AttachedRow[]): TypeFieldsByType[ActionType] {
  const d = a.details;
  switch (a.action_type) {
    case 'dns':
      return { query_type: str(d.query_type, 'A'), domain: str(d.domain), dns_server_id: numOrNull(d.dns_server_id) };
    case 'captive_dns':
      return { query_type: str(d.query_type, 'A'), query: str(d.query), response: str(d.response) };
    case 'captive_ioc_url':
      return { urls: Array.isArray(d.urls) ? d.urls.map((u) => str(u)) : [], timeout_ms: a.timeout_ms };
    case 'email':
      return {
        subject: str(d.subject),
        body: str(d.body),
        mime_text_type: str(d.mime_text_type, 'text/plain'),
        block_matching_scheme: str(d.block_matching_scheme, 'subject_and_attachment'),
        files: files.map((f) => ({ file_id: f.id, attachment_encoding: str(f.details.attachment_encoding, 'base64'), ignore_if_missing: boolOf(f.details.ignore_if_missing) })),
      } satisfies EmailFields;
    case 'file_transfer':
      return {
        file_transfer_library_id: files[0]?.id ?? numOrNull(d.file_transfer_library_id),
        compare_transfer: boolOf(d.compare_transfer, true),
        keep_after_compare: boolOf(d.keep_after_compare),
        content_encoding: str(d.content_encoding),
        user_agent: str(d.user_agent),
        method: str(d.method, 'GET'),
        app_layer: str(d.app_layer),
        target_port: numOrNull(d.target_port),
        tunnel_protocol: str(d.tunnel_protocol, 'none'),
        tunnel_cidr: str(d.tunnel_cidr),
        dns_domain: str(d.dns_domain),
        dns_server_ip: str(d.dns_server_ip),
      } satisfies FileTransferFields;
    case 'socket':
      return { comm_type: str(d.comm_type, 'tcp'), server_port: numOrNull(d.server_port), steps: (d.steps as TypeFieldsByType['socket']['steps']) ?? [] };
    case 'website':
      return { server_port: numOrNull(d.server_port), http_ver: str(d.http_ver, '1.1'), use_https: boolOf(d.use_https), steps: (d.steps as TypeFieldsByType['website']['steps']) ?? [] };
    case 'host_cli':
      return {
        action_user_profile_id: numOrNull(d.action_user_profile_id),
        require_run_as_interactive: boolOf(d.require_run_as_interactive),
        monitor_connections: a.monitor_connections,
        delivery_wait_time: numOrNull(d.delivery_wait_time) ?? 10,
        delivery_failed_result: str(d.delivery_failed_result, 'blocked'),
        destination_exists_result: str(d.destination_exists_result, 'overwrite'),
        require_protected: a.require_protected,
        approve_anywhere: a.approve_anywhere,
        shell: str(d.shell, 'cmd'),
        raw_text: str(d.raw_text),
        cleanup_raw_text: str(d.cleanup_raw_text),
        separate_cleanup_shell: boolOf(d.separate_cleanup_shell),
        automatic_file_cleanup: boolOf(d.automatic_file_cleanup, true),
        execution_plan: typeof d.execution_plan === 'string' ? d.execution_plan : null,
        files: files.map((f) => ({
          file_id: f.id,
          destination_directory: str(f.details.destination_directory, 'C:/users/public/documents/'),
          destination_name: str(f.details.destination_name),
          file_owner: str(f.details.file_owner, 'match_action'),
          randomize_file: boolOf(f.details.randomize_file),
        })),
      } satisfies HostCliFields;
    case 'port_scan':
      return { ports_list: str(d.ports_list), sleep_timer: numOrNull(d.sleep_timer) ?? 0, randomize_scan: boolOf(d.randomize_scan) };
    case 'cloud':
      return {
        inputs: (d.inputs as CloudFields['inputs']) ?? [],
        outputs: (d.outputs as CloudFields['outputs']) ?? [],
        scripts: ((d.scripts as CloudFields['scripts']) ?? []).map((s) => ({ name: s.name, script_text: s.script_text, script_type: s.script_type ?? null, timeout: s.timeout })),
        files: files.map((f) => ({ file_id: f.id, variable_name: f.variable_name ?? '' })),
        approve_anywhere: a.approve_anywhere,
      } satisfies CloudFields;
    case 'web_request': {
      const w = d as unknown as TypeFieldsByType['web_request'];
      return {
        host: str(w.host),
        profile: str(w.profile),
        path: str(w.path, '/'),
        http_method: str(w.http_method, 'GET'),
        encode_url: boolOf(w.encode_url),
        body: str(w.body),
        request: {
          parameters: w.request?.parameters ?? [],
          headers: w.request?.headers ?? [],
          auto_content_length: boolOf(w.request?.auto_content_length, true),
          auto_host_header: boolOf(w.request?.auto_host_header, true),
        },
        conditions: w.conditions ?? [],
      };
    }
    case 'pcap':
    case 'captive_ioc_pcap':
      return {
        attacker_ip: str(d.attacker_ip),
        destination_ip: str(d.destination_ip),
        bypass_http_check: boolOf(d.bypass_http_check),
        anonymized_ip: boolOf(d.anonymized_ip, true),
        anonymized_mac: boolOf(d.anonymized_mac, true),
        upload: numOrNull(d.upload),
      } satisfies PcapFields;
    case 'sleep':
      return {};
  }
}

/** Finds an Action by numeric id or by VID. */
export async function findActionId(db: Db, idOrVid: string): Promise<number> {
  const byId = /^\d+$/.test(idOrVid);
  const rows = await db.query<{ id: number }>(byId ? 'select id from actions where id = $1' : 'select id from actions where lower(vid) = lower($1)', [byId ? Number(idOrVid) : idOrVid.trim()]);
  if (!rows[0]) throw notFound(`Action ${idOrVid} does not exist.`);
  return rows[0].id;
}

export async function loadActionForm(db: Db, id: number): Promise<LoadedAction> {
  const [a] = await db.query<ActionRecord>(
    `select id, vid, name, description, action_type, version, approved, require_protected, approve_anywhere, monitor_connections, timeout_ms, uac,
            details, created_at::text as created_at, updated_at::text as updated_at
       from actions where id = $1`,
    [id],
  );
  if (!a) throw notFound(`Action ${id} does not exist.`);
  const files = await db.query<AttachedRow>(
    `select f.id, f.orig_file_name, f.sha256sum, f.file_restrictions, f.size, af.position, af.variable_name, af.details
       from action_files af join file_library f on f.id = af.file_id where af.action_id = $1 order by af.position, af.id`,
    [id],
  );
  const dims = await db.query<{ dimension_type: string; dimension_id: number }>('select dimension_type, dimension_id from action_dimensions where action_id = $1', [id]);
  const tags = await db.query<{ name: string; class_name: string; code: string | null }>(
    `select t.name, t.class_name, t.code from action_tags at join tags t on t.id = at.tag_id where at.action_id = $1 and t.tag_type <> 'file_attachment' order by t.class_name, t.name`,
    [id],
  );
  const values: ActionFormPayload = {
    sim_action: { name: a.name, desc: a.description, action_type: a.action_type, timeout_ms: a.timeout_ms, uac: a.uac },
    system_override: { vid: '' },
    trees: DIMENSION_TYPES.map((t) => ({ id: dims.find((d) => d.dimension_type === t)?.dimension_id ?? null })),
    tags: {
      user_tags: tags.filter((t) => t.class_name === 'user').map((t) => t.name),
      verodin_tags: tags.filter((t) => t.class_name !== 'user').map((t) => t.name),
    },
    [typeKey(a.action_type)]: typeFieldsOf(a, files),
  };
  const display: FileDisplay[] = files.map((f) => ({ id: f.id, orig_file_name: f.orig_file_name, sha256sum: f.sha256sum, file_restrictions: f.file_restrictions, size: Number(f.size) }));
  return {
    id: a.id,
    vid: a.vid,
    version: a.version,
    approved: a.approved,
    vendor: isVendorVid(a.vid),
    action_type: a.action_type,
    created_at: a.created_at,
    updated_at: a.updated_at,
    values,
    files: display,
  };
}
