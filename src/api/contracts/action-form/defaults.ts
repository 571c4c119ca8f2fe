/** Default type fields of a new Action and the cloud script template. */
import { type ActionType } from '../vocabulary';
import type { CloudScriptInput, TypeFieldsByType } from './payload';

// Defaults.

export const HOST_FILE_DEFAULTS = { destination_directory: 'C:/users/public/documents/', destination_name: '', file_owner: 'match_action', randomize_file: false } as const;

export const CLOUD_SCRIPT_TEMPLATE = [
  '# Variables: inputs[name] holds each input, outputs[name] receives each output,',
  '# files[variable_name] is the local path of each attached file.',
  'import json',
  '',
  'def run(inputs, outputs, files):',
  '    pass',
  '',
  'run(inputs, outputs, files)',
  '',
].join('\n');

export function defaultTypeFields<T extends ActionType>(type: T): TypeFieldsByType[T] {
  const all: TypeFieldsByType = {
    dns: { query_type: 'A', domain: '', dns_server_id: null },
    captive_dns: { query_type: 'A', query: '', response: '' },
    captive_ioc_url: { urls: [''], timeout_ms: 30000 },
    email: { subject: '', body: '', mime_text_type: 'text/plain', block_matching_scheme: 'subject_and_attachment', files: [] },
    file_transfer: {
      file_transfer_library_id: null,
      compare_transfer: true,
      keep_after_compare: false,
      content_encoding: '',
      user_agent: '',
      method: 'GET',
      app_layer: '',
      target_port: null,
      tunnel_protocol: 'none',
      tunnel_cidr: '',
      dns_domain: '',
      dns_server_ip: '',
    },
    socket: { comm_type: 'tcp', server_port: null, steps: [{ data_type: 'ascii', request: '', response: '' }] },
    website: { server_port: 80, http_ver: '1.1', use_https: false, steps: [{ request: '', req_headers: '', request_body: '', resp_code: 200, resp_headers: '', response: '' }] },
    host_cli: {
      action_user_profile_id: null,
      require_run_as_interactive: false,
      monitor_connections: false,
      delivery_wait_time: 10,
      delivery_failed_result: 'blocked',
      destination_exists_result: 'overwrite',
      require_protected: false,
      approve_anywhere: false,
      shell: 'cmd',
      raw_text: '',
      cleanup_raw_text: '',
      separate_cleanup_shell: false,
      automatic_file_cleanup: true,
      execution_plan: null,
      files: [],
    },
    port_scan: { ports_list: '', sleep_timer: 0, randomize_scan: false },
    cloud: {
      inputs: [],
      outputs: [],
      scripts: [
        { name: 'Setup', script_text: CLOUD_SCRIPT_TEMPLATE, script_type: 'setup', timeout: 300 },
        { name: 'Clean Up', script_text: CLOUD_SCRIPT_TEMPLATE, script_type: 'cleanup', timeout: 300 },
      ],
      files: [],
      approve_anywhere: false,
    },
    web_request: {
      host: '',
      profile: '',
      path: '/',
      http_method: 'GET',
      encode_url: false,
      body: '',
      request: { parameters: [], headers: [], auto_content_length: true, auto_host_header: true },
      conditions: [{ code: 200, response_regex: '', pass_fail_error: 'fail' }],
    },
    pcap: { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null },
    captive_ioc_pcap: { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null },
    sleep: {},
  };
  return structuredClone(all[type]);
}

/** Cloud scripts: the first is the Setup script, the last the Clean Up script; the others have no type. */
export function cloudScriptTypeAt(index: number, count: number): CloudScriptInput['script_type'] {
  if (index === 0) return 'setup';
  if (index === count - 1 && count > 1) return 'cleanup';
  return null;
}
