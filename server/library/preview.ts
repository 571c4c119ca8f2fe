/**
 * The action library's preview of one Action (actions.md section 3 "Preview detail by type"): the
 * common properties, the host_cli commands parsed, and the type-specific detail with what the
 * Action's last runs and its capture say.
 */
import type { Db } from '../db/index';
import type { ActiveSession } from '../auth/sessions';
import { isVendorVid, type AttachedFile, type FileCleanupResult, type HostCommand, type PreviewDetail, type PreviewDetailByType, type PreviewFile, type PreviewProps } from '../../src/api/contracts/library';
import { approvalPermissions, fileCounts, ineligibleReason, loadAlerts, loadFiles, loadSignatures, loadSimulations, needsProtected, type ActionRecord } from './detail';

/** Parses host_cli commands: a command line, an indented prompt/sleep/logs/timeout line, then indented conditions. */
export function parseHostCommands(raw: string): HostCommand[] {
  const out: (HostCommand & { sawParams: boolean })[] = [];
  let current: (HostCommand & { sawParams: boolean }) | null = null;
  for (const line of raw.split(/\r?\n/)) {
    if (!line.trim()) continue;
    if (!/^\s/.test(line)) {
      current = { command: line, prompt: null, sleep_seconds: null, check_logs: null, max_timeout_seconds: null, conditions: [], sawParams: false };
      out.push(current);
      continue;
    }
    if (!current) {
      current = { command: line.trim(), prompt: null, sleep_seconds: null, check_logs: null, max_timeout_seconds: null, conditions: [], sawParams: true };
      out.push(current);
      continue;
    }
    const text = line.trim();
    const parts = text.split(/\s+/);
    if (!current.sawParams && parts.length >= 3 && /^\d+(\.\d+)?$/.test(parts[1] ?? '') && /^(true|false)$/i.test(parts[2] ?? '')) {
      current.prompt = parts[0] ?? null;
      current.sleep_seconds = Number(parts[1]);
      current.check_logs = /^true$/i.test(parts[2] ?? '');
      current.max_timeout_seconds = parts[3] !== undefined && /^\d+$/.test(parts[3]) ? Number(parts[3]) : null;
      current.sawParams = true;
    } else {
      current.sawParams = true;
      current.conditions.push(text);
    }
  }
  return out.map(({ sawParams: _s, ...c }) => c);
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : v === null || v === undefined ? fallback : String(v));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean => v === true;
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function previewFile(f: AttachedFile): PreviewFile {
  return { id: f.id, orig_file_name: f.orig_file_name, sha256sum: f.sha256sum, file_restrictions: f.file_restrictions };
}

async function latestEvidence(db: Db, actionId: number, key: string): Promise<unknown> {
  const [row] = await db.query<{ value: unknown }>(
    `select evidence -> $2 as value from job_actions where action_id = $1 and evidence ? $2 order by job_id desc, id desc limit 1`,
    [actionId, key],
  );
  return row ? row.value : undefined;
}

/** HTTP services of the conversation table's App column (server/pcap/services.ts). */
const HTTP_SERVICES = ['http', 'http-alt'];

/** Whether the capture the Action replays holds HTTP conversations, as its upload's conversation table says. */
async function hasHttpTraffic(db: Db, actionId: number, upload: number | null): Promise<boolean> {
  const rows = await db.query(
    `select 1 from pcap_conversations c
      where c.service = any($3::text[])
        and (c.upload_id = $2 or c.upload_id in (select id from pcap_uploads where action_id = $1))
      limit 1`,
    [actionId, upload, HTTP_SERVICES],
  );
  return rows.length > 0;
}

/** The DNS server a dns Action queries, as 'name (address)'; '' (shown as 'Default') when none is set. */
async function dnsServerLabel(db: Db, id: unknown): Promise<string> {
  if (id === null || id === undefined || id === '') return '';
  const n = Number(id);
  const [row] = Number.isInteger(n) ? await db.query<{ name: string; address: string }>('select name, address from dns_servers where id = $1', [n]) : [];
  return row ? `${row.name} (${row.address})` : `Unknown DNS server ${str(id)}`;
}

async function pcapPreview(db: Db, a: ActionRecord): Promise<PreviewDetailByType['pcap']> {
  const d = a.details;
  const name = str(d.file);
  const [stored] = name
    ? await db.query<{ id: number }>('select id from file_library where orig_file_name = $1 and (content is not null or content_file is not null) order by id desc limit 1', [name])
    : [];
  // Captures too large for a library copy are still stored: the processed file on disk.
  const [processed] = stored ? [stored] : await db.query<{ id: number }>('select id from pcap_uploads where action_id = $1 and processed_size is not null limit 1', [a.id]);
  const upload = num(d.upload);
  return {
    file: { sim_id: a.id, name, preview_link: upload !== null ? `/manage_sims/pcaps/inspect/${upload}` : null, stored: Boolean(processed) },
    has_hex: Boolean(processed),
    has_http_traffic: await hasHttpTraffic(db, a.id, upload),
    attacker_ip: str(d.attacker_ip),
    destination_ip: str(d.destination_ip),
    anonymized_ip: bool(d.anonymized_ip),
    anonymized_mac: bool(d.anonymized_mac),
  };
}

/** The type-specific detail of the preview (actions.md section 3 "Preview detail by type"). */
export async function previewDetail(db: Db, a: ActionRecord, files: AttachedFile[]): Promise<PreviewDetail> {
  const d = a.details;
  switch (a.action_type) {
    case 'captive_dns':
      return { action_type: a.action_type, detail: { query: str(d.query), query_type: str(d.query_type), response: str(d.response) } };
    case 'captive_ioc_url':
      return { action_type: a.action_type, detail: { urls: list<string>(d.urls).map((u) => str(u)) } };
    case 'dns':
      return { action_type: a.action_type, detail: { query_type: str(d.query_type), domain: str(d.domain), domain_server: await dnsServerLabel(db, d.dns_server_id) } };
    case 'email':
      return {
        action_type: a.action_type,
        detail: {
          subject: str(d.subject),
          body: str(d.body),
          mime_text_type: str(d.mime_text_type),
          file_attachments: files.map((f) => ({
            ...previewFile(f),
            attachment_encoding: typeof f.details.attachment_encoding === 'string' ? f.details.attachment_encoding : null,
            ignore_if_missing: typeof f.details.ignore_if_missing === 'boolean' ? f.details.ignore_if_missing : null,
          })),
        },
      };
    case 'file_transfer': {
      const libId = num(d.file_transfer_library_id);
      const [file] = libId !== null
        ? await db.query<PreviewFile & { md5sum: string; sha1sum: string }>(
            'select id, orig_file_name, sha256sum, sha1sum, md5sum, file_restrictions from file_library where id = $1',
            [libId],
          )
        : [];
      const method = str(d.method, 'GET');
      return {
        action_type: a.action_type,
        detail: {
          file: file ? { id: file.id, orig_file_name: file.orig_file_name, sha256sum: file.sha256sum, file_restrictions: file.file_restrictions } : null,
          direction: method === 'GET' ? 'Download' : 'Upload',
          request_domain: d.dns_domain === null || d.dns_domain === undefined ? null : str(d.dns_domain),
          forward_DNS: d.dns_server_ip === null || d.dns_server_ip === undefined ? null : str(d.dns_server_ip),
          cidr: d.tunnel_cidr === null || d.tunnel_cidr === undefined ? null : str(d.tunnel_cidr),
          encoding: str(d.content_encoding),
          md5sum: file?.md5sum ?? null,
          sha1sum: file?.sha1sum ?? null,
          sha256sum: file?.sha256sum ?? null,
          method,
          app_layer: str(d.app_layer),
          target_port: num(d.target_port),
          tunnel_protocol: str(d.tunnel_protocol, 'none'),
          user_agent: str(d.user_agent),
        },
      };
    }
    case 'host_cli': {
      const profileId = num(d.action_user_profile_id);
      const [profile] = profileId !== null ? await db.query<{ friendly_name: string }>('select friendly_name from action_user_profiles where id = $1', [profileId]) : [];
      const cleanup = await latestEvidence(db, a.id, 'file_cleanup');
      const raw = str(d.raw_text);
      const cleanupRaw = str(d.cleanup_raw_text);
      return {
        action_type: a.action_type,
        detail: {
          commands: { shell_type: str(d.shell, 'cmd'), commands: parseHostCommands(raw), cleanup: parseHostCommands(cleanupRaw), raw_text: raw, cleanup_raw_text: cleanupRaw },
          files: {
            file_list: files.map((f) => ({
              ...previewFile(f),
              destination_directory: str(f.details.destination_directory),
              destination_name: str(f.details.destination_name),
              file_owner: str(f.details.file_owner),
            })),
            automatic_file_cleanup: bool(d.automatic_file_cleanup),
            delivery_wait_time: num(d.delivery_wait_time),
            delivery_failed_result: d.delivery_failed_result === undefined ? null : str(d.delivery_failed_result),
            destination_exists_result: d.destination_exists_result === undefined ? null : str(d.destination_exists_result),
          },
          file_cleanup: list<Record<string, unknown>>(cleanup).map((r): FileCleanupResult => ({ filename: str(r.filename), removed: r.removed === true, result: str(r.result) })),
          run_as: profile?.friendly_name ?? null,
        },
      };
    }
    case 'pcap':
      return { action_type: a.action_type, detail: await pcapPreview(db, a) };
    case 'captive_ioc_pcap':
      return { action_type: a.action_type, detail: await pcapPreview(db, a) };
    case 'port_scan':
      return { action_type: a.action_type, detail: { ports_list: str(d.ports_list), sleep_timer: num(d.sleep_timer) ?? 0, randomize_scan: bool(d.randomize_scan) } };
    case 'socket':
      return {
        action_type: a.action_type,
        detail: {
          comm_type: str(d.comm_type),
          server_port: num(d.server_port) ?? 0,
          steps: list<Record<string, unknown>>(d.steps).map((s) => ({ data_type: str(s.data_type), request: str(s.request), response: str(s.response) })),
        },
      };
    case 'website':
      return {
        action_type: a.action_type,
        detail: {
          use_https: bool(d.use_https),
          server_port: num(d.server_port) ?? 0,
          http_ver: str(d.http_ver),
          steps: list<Record<string, unknown>>(d.steps).map((s) => ({
            request: str(s.request),
            req_headers: str(s.req_headers),
            request_body: str(s.request_body),
            resp_code: num(s.resp_code) ?? 0,
            resp_headers: str(s.resp_headers),
            response: str(s.response),
          })),
        },
      };
    case 'web_request':
      // Passed as stored: the preview shows '--' for whatever is missing.
      return { action_type: a.action_type, detail: d as PreviewDetailByType['web_request'] };
    case 'cloud': {
      const logs = await latestEvidence(db, a.id, 'logs');
      return {
        action_type: a.action_type,
        detail: {
          inputs: list<Record<string, unknown>>(d.inputs).map((i) => ({ name: str(i.name), default_value: str(i.default_value) })),
          outputs: list<Record<string, unknown>>(d.outputs).map((o) => ({ name: str(o.name) })),
          files: { file_list: files.map((f) => ({ ...previewFile(f), variable_name: f.variable_name })) },
          scripts: list<Record<string, unknown>>(d.scripts).map((s, i) => ({
            id: i + 1,
            name: str(s.name),
            script_text: str(s.script_text),
            script_type: s.script_type === null || s.script_type === undefined ? null : str(s.script_type),
            timeout: num(s.timeout),
          })),
          logs: logs === undefined ? null : logs,
        },
      };
    }
    case 'sleep':
      return { action_type: a.action_type, detail: {} };
  }
}

export async function buildPreview(db: Db, session: ActiveSession, a: ActionRecord): Promise<PreviewProps> {
  const files = await loadFiles(db, a.id);
  const counts = fileCounts(files);
  const sleep = a.action_type === 'sleep';
  const reason = ineligibleReason(a, counts);
  const common = {
    id: a.id,
    vid: a.vid,
    sim_name: a.name,
    description: a.description,
    approved: a.approved,
    version: a.version,
    disabled: a.disabled,
    decommissioned: a.decommissioned,
    require_protected: needsProtected(a, counts.malicious),
    approve_anywhere: a.approve_anywhere,
    monitor_connections: a.monitor_connections,
    vendor: isVendorVid(a.vid),
    timeout_ms: a.timeout_ms,
    date_created: a.created_at,
    date_modified: a.modified_at,
    event_filter_rules: Array.isArray(a.event_filter_rules) ? a.event_filter_rules : [],
    detection_alerts: sleep ? [] : await loadAlerts(db, a.id),
    simulations: sleep ? [] : await loadSimulations(db, a.id),
    verodin_signatures: sleep ? [] : await loadSignatures(db, a.id),
    files,
    pending_files: counts.pending,
    malicious_files: counts.malicious,
    eligible_for_approval: reason === null,
    ineligible_reason: reason,
    userPermissions: approvalPermissions(session),
  };
  return { ...common, ...(await previewDetail(db, a, files)) };
}
