/**
 * A validated Action form as the actions row stores it: the common columns, the type's details
 * (normalized: trimmed text, lists joined, fields that do not apply cleared) and whether the saved
 * Action is approved.
 */
import { typeKey, type PcapFields } from '../../src/api/contracts/action-form';
import type { ValidAction } from './form-validate';

export interface Columns {
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

/** The actions row's columns of a validated form; a PCAP Action keeps its upload and file from `existingDetails`. */
export function columnsFor(v: ValidAction, existingDetails: Record<string, unknown> | undefined): Columns {
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
export function approvedAfterSave(v: ValidAction, cols: Columns): boolean {
  const restrictions = v.files.map((f) => v.fileRows.get(f.file_id)?.file_restrictions);
  if (restrictions.includes('pending_approval')) return false;
  if (v.type === 'cloud') return cols.approve_anywhere && !restrictions.includes('restricted_malicious');
  if (v.type === 'host_cli') return false;
  return true;
}
