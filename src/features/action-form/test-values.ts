/**
 * Test values for the hidden key combination of the form (and for tests): a valid Action of each type,
 * built from what the form definition offers. Pure TypeScript.
 */
import { type ActionFormPayload, type FileDisplay, type FormDefinition, type TypeFieldsByType, typeKey } from '@/api/contracts/action-form';
import { sampleHostCliCommand } from '@/api/contracts/action-form-host-cli';
import { DIMENSION_TYPES, type ActionType } from '@/api/contracts/vocabulary';

/** The first non-root node of each tree (or the type's default when there is one). */
export function testTrees(def: FormDefinition, type: ActionType): { id: number | null }[] {
  return DIMENSION_TYPES.map((t) => {
    const d = def.dimension_defaults[type]?.[t];
    if (d) return { id: d };
    const tree = def.dimension_trees.find((x) => x.type === t);
    return { id: tree?.tree.children[0]?.id ?? null };
  });
}

const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

export function testTypeFields<T extends ActionType>(type: T, def: FormDefinition, files: readonly FileDisplay[] = []): TypeFieldsByType[T] {
  const safe = files.filter((f) => f.file_restrictions === 'none');
  const any = files.filter((f) => f.file_restrictions !== 'restricted_malicious');
  const byType: { [K in ActionType]: () => TypeFieldsByType[K] } = {
    dns: () => ({ query_type: 'A', domain: 'test-c2.example-bad.com', dns_server_id: def.dns_servers[0]?.id ?? null }),
    captive_dns: () => ({ query_type: 'A', query: 'captive-test.example-bad.net', response: '198.51.100.77' }),
    captive_ioc_url: () => ({ urls: ['http://ioc-test.example-bad.org/payload.bin', 'https://ioc-test.example-bad.org/gate.php?id=7'], timeout_ms: 30000 }),
    email: () => ({
      subject: 'Test invoice - please review',
      body: 'Hello,\n\nPlease find the test attachment.\n\nRegards',
      mime_text_type: 'text/plain',
      block_matching_scheme: 'subject_and_attachment',
      files: any.slice(0, 1).map((f) => ({ file_id: f.id, attachment_encoding: 'base64', ignore_if_missing: false })),
    }),
    file_transfer: () => ({
      file_transfer_library_id: (safe[0] ?? any[0])?.id ?? null,
      compare_transfer: true,
      keep_after_compare: false,
      content_encoding: 'zip,gzip',
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
      method: 'GET',
      app_layer: 'https',
      target_port: 443,
      tunnel_protocol: 'dns',
      tunnel_cidr: '10.20.0.0/16',
      dns_domain: 'tunnel.example-bad.com',
      dns_server_ip: '203.0.113.53',
    }),
    socket: () => ({
      comm_type: 'tcp',
      server_port: 4444,
      steps: [
        { data_type: 'ascii', request: 'HELLO test-beacon', response: 'OK' },
        { data_type: 'hex', request: 'de ad be ef', response: '00 01' },
      ],
    }),
    website: () => ({
      server_port: 8080,
      http_ver: '1.1',
      use_https: false,
      steps: [
        { request: 'GET /test/login HTTP/1.1', req_headers: 'Host: test.example-bad.com', request_body: '', resp_code: 200, resp_headers: 'Content-Type: text/html', response: '<html>test</html>' },
      ],
    }),
    host_cli: () => ({
      action_user_profile_id: def.action_user_profiles[0]?.id ?? null,
      require_run_as_interactive: false,
      monitor_connections: false,
      delivery_wait_time: 10,
      delivery_failed_result: 'blocked',
      destination_exists_result: 'overwrite',
      require_protected: false,
      approve_anywhere: false,
      shell: 'cmd',
      raw_text: sampleHostCliCommand('whoami /all', ['blocked_match Access is denied', 'success_zero', 'error_nonzero']),
      cleanup_raw_text: sampleHostCliCommand('del /f C:\\users\\public\\test.txt', ['cleanup'], true),
      separate_cleanup_shell: false,
      automatic_file_cleanup: true,
      execution_plan: null,
      files: safe.slice(0, 1).map((f) => ({ file_id: f.id, destination_directory: 'C:/users/public/documents/', destination_name: '', file_owner: 'match_action', randomize_file: false })),
    }),
    port_scan: () => ({ ports_list: '22,80,443,8000-8010,#3389', sleep_timer: 10, randomize_scan: true }),
    cloud: () => ({
      inputs: [{ name: 'region', default_value: 'us-east-1' }],
      outputs: [{ name: 'result' }],
      scripts: [
        { name: 'Setup', script_text: "import boto3\nprint('setup', inputs['region'])\n", script_type: 'setup', timeout: 120 },
        { name: 'Run test', script_text: "outputs['result'] = 'ok'\n", script_type: null, timeout: 300 },
        { name: 'Clean Up', script_text: "print('cleanup')\n", script_type: 'cleanup', timeout: 120 },
      ],
      files: safe.slice(0, 1).map((f) => ({ file_id: f.id, variable_name: 'test_file' })),
      approve_anywhere: false,
    }),
    web_request: () => ({
      host: 'shop.test.example.com',
      profile: def.web_request_profiles[0] ?? '',
      path: '/account/login.php',
      http_method: 'POST',
      encode_url: false,
      body: "form:v:urlencoded:v:username=admin%27--&password=x",
      request: { parameters: [{ key: 'debug', value: '1' }], headers: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }], auto_content_length: true, auto_host_header: true },
      conditions: [
        { code: 403, response_regex: '', pass_fail_error: 'pass' },
        { code: 200, response_regex: 'Welcome', pass_fail_error: 'fail' },
      ],
    }),
    pcap: () => ({ attacker_ip: '10.10.1.50', destination_ip: '198.51.100.20', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null }),
    captive_ioc_pcap: () => ({ attacker_ip: '10.10.1.50', destination_ip: '198.51.100.20', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null }),
    sleep: () => ({}),
  };
  return (byType[type] as () => TypeFieldsByType[T])();
}

/** A whole valid payload of one type (for tests and the fill key). */
export function testPayload(type: ActionType, def: FormDefinition, files: readonly FileDisplay[] = []): ActionFormPayload {
  return {
    sim_action: {
      name: `Test ${type} Action ${stamp()}`,
      desc: `A **test** ${type} Action filled in by the test values key.\n\n- made for checking the form\n- safe to delete`,
      action_type: type,
      timeout_ms: type === 'sleep' ? 30000 : 60000,
      uac: false,
    },
    trees: testTrees(def, type),
    tags: { user_tags: ['Lab Only'], verodin_tags: [] },
    [typeKey(type)]: testTypeFields(type, def, files),
  };
}
