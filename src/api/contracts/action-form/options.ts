/** Labels, options and numeric limits of the Action form fields, and the app layer / tunnel rules (actions.md section 6). */
// Labels, options and limits.

export const DNS_QUERY_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'PTR', 'SRV'] as const;
export const MIME_TEXT_TYPES = ['text/plain', 'text/html'] as const;
export const BLOCK_MATCHING_SCHEMES = ['subject', 'attachment', 'subject_and_attachment'] as const;
export const ATTACHMENT_ENCODINGS = ['base64', 'quoted-printable', '7bit'] as const;
export const CONTENT_ENCODINGS = ['zip', 'gzip', 'bzip2', 'tar', 'rar', '7zip'] as const;
export const APP_LAYERS = ['http', 'https', 'ftp', 'scp'] as const;
export const APP_LAYER_PORTS: Record<string, number> = { ftp: 21, http: 80, https: 443, scp: 25 };
export const TUNNEL_PROTOCOLS = ['none', 'icmp', 'ssh', 'dns'] as const;
export const TRANSFER_METHODS = ['GET', 'POST', 'PUT'] as const;
export const SOCKET_COMM_TYPES = ['tcp', 'udp'] as const;
export const SOCKET_DATA_TYPES = ['ascii', 'hex', 'base64'] as const;
export const HTTP_VERSIONS = ['1.0', '1.1', '2'] as const;
export const SHELLS = ['cmd', 'powershell', 'bash', 'sh', 'python'] as const;
export const DELIVERY_FAILED_RESULTS = ['blocked', 'errored', 'success'] as const;
export const DESTINATION_EXISTS_RESULTS = ['overwrite', 'errored', 'use_existing'] as const;
export const FILE_OWNERS = ['match_action', 'system'] as const;
export const WEB_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const PASS_FAIL_ERROR = ['pass', 'fail', 'error'] as const;
export const CLOUD_SCRIPT_TYPES = ['setup', 'cleanup'] as const;

export const SHELL_LABELS: Record<(typeof SHELLS)[number], string> = { cmd: 'cmd.exe', powershell: 'PowerShell', bash: 'bash', sh: 'sh', python: 'Python' };
/** Numeric limits: the form definition sends these (min, max, step), and the schemas enforce them. */
export const FORM_LIMITS = {
  timeout_ms: { min: 0, max: 86_400_000, step: 1000 },
  sleep_ms: { min: 1000, max: 86_400_000, step: 1000 },
  captive_ioc_url_timeout_ms: { min: 1000, max: 300_000, step: 1000 },
  server_port: { min: 1, max: 65535, step: 1 },
  resp_code: { min: 100, max: 599, step: 1 },
  condition_code: { min: 0, max: 599, step: 1 },
  delivery_wait_time: { min: 0, max: 3600, step: 1 },
  sleep_timer: { min: 0, max: 60_000, step: 1 },
  script_timeout: { min: 1, max: 86_400, step: 1 },
} as const;
export type Limit = { min: number; max: number; step: number };

/** The app layer's port: ftp 21, http 80, https 443, scp 25, otherwise the value itself. */
export function appLayerPort(appLayer: string): number | null {
  if (Object.hasOwn(APP_LAYER_PORTS, appLayer)) return APP_LAYER_PORTS[appLayer]!;
  return /^\d{1,5}$/.test(appLayer) ? Number(appLayer) : null;
}

/** A known app layer, or a port number (1-65535) standing for itself. */
export function isAppLayer(value: string): boolean {
  if ((APP_LAYERS as readonly string[]).includes(value)) return true;
  return /^\d{1,5}$/.test(value) && Number(value) >= FORM_LIMITS.server_port.min && Number(value) <= FORM_LIMITS.server_port.max;
}

/** Tunnel protocols offered for an app layer (ssh is not offered for scp). */
export function tunnelProtocolsFor(appLayer: string): (typeof TUNNEL_PROTOCOLS)[number][] {
  return TUNNEL_PROTOCOLS.filter((p) => !(appLayer === 'scp' && p === 'ssh'));
}
export const tunnelNeedsCidr = (p: string) => p === 'icmp' || p === 'ssh' || p === 'dns';
export const tunnelNeedsDns = (p: string) => p === 'dns';
