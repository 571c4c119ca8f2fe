/** Loading an Action into the Add/Edit Action form: its stored row, files, dimensions and tags as the form's values. */
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import { typeKey, type ActionFormPayload, type CloudFields, type EmailFields, type FileDisplay, type FileTransferFields, type HostCliFields, type LoadedAction, type PcapFields, type TypeFieldsByType } from '../../src/api/contracts/action-form';
import { DIMENSION_TYPES, type ActionType } from '../../src/api/contracts/vocabulary';
import type { FileRow } from './form-files';
import { isVendorVid } from './vid';

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
