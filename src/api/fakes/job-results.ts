import type { Rng } from './random';
import type { EventSeverity } from '@/api/contracts/jobs';
import type { ActionRow, DeviceRow, IntegrationRow, JobActionRow, NodeRow } from './types';

/** What a finished ('ran') action reports: the variants the result display rules distinguish. */
export type RanVariant = 'blocked' | 'not_blocked' | 'alerted' | 'events' | 'no_events';

export type RanResult = Pick<JobActionRow, 'alerted' | 'blocked' | 'blocked_msg' | 'detected_msg' | 'events' | 'suspect_events' | 'evidence'>;

export interface PlannedEvent {
  integration_id: number;
  description: string;
  raw_event: string;
  suspicious: boolean;
  alert: boolean;
  severity: EventSeverity;
}

const INTEGRATIONS_BY_TYPE: Record<string, readonly string[]> = {
  host_cli: ['CrowdStrike Falcon', 'Microsoft Sentinel', 'Splunk Enterprise Security'],
  email: ['Proofpoint TAP', 'Splunk Enterprise Security'],
  cloud: ['Microsoft Sentinel', 'Splunk Enterprise Security'],
  web_request: ['Palo Alto Networks NGFW', 'Splunk Enterprise Security'],
  website: ['Zscaler ZIA', 'Palo Alto Networks NGFW', 'Splunk Enterprise Security'],
  captive_ioc_url: ['Zscaler ZIA', 'Splunk Enterprise Security'],
};
const NETWORK_INTEGRATIONS = ['Palo Alto Networks NGFW', 'Snort 3', 'Splunk Enterprise Security'];

function firstCommand(a: ActionRow): string {
  return a.action_type === 'host_cli' ? (a.details.raw_text.split('\n')[0] ?? '') : '';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function blockedMessage(r: Rng, a: ActionRow, devices: readonly DeviceRow[], blocked: boolean): string {
  const device = (types: DeviceRow['device_type'][]) => r.pick(devices.filter((d) => types.includes(d.device_type))).name;
  if (!blocked) {
    switch (a.action_type) {
      case 'host_cli':
        return 'All commands completed; success conditions matched.';
      case 'file_transfer':
        return 'File transferred; SHA256 of the received file matched.';
      case 'email':
        return 'Message delivered to the inbox with its attachments intact.';
      case 'cloud':
        return 'All scripts completed without an access error.';
      default:
        return 'Traffic completed end to end.';
    }
  }
  switch (a.action_type) {
    case 'host_cli':
      return `Command "${clip(firstCommand(a), 60)}" matched blocked_match: Access is denied.`;
    case 'email':
      return `Message quarantined by ${device(['email_gateway'])}.`;
    case 'cloud':
      return 'AccessDenied: explicit deny in a service control policy.';
    case 'web_request':
    case 'website':
      return `HTTP 403 returned by ${device(['waf', 'proxy', 'firewall'])}.`;
    case 'dns':
    case 'captive_dns':
      return 'Query answered with the sinkhole address.';
    default:
      return `Connection reset by ${device(['firewall', 'ips', 'proxy'])}.`;
  }
}

function evidence(r: Rng, a: ActionRow, blocked: boolean, files: readonly string[]): Record<string, unknown> {
  switch (a.action_type) {
    case 'host_cli': {
      const dir = ['bash', 'sh', 'python'].includes(a.details.shell) ? '/tmp/' : 'C:/users/public/documents/';
      return {
        commands: [{ command: firstCommand(a), exit_code: blocked ? 5 : 0, output: blocked ? 'Access is denied.' : 'The operation completed successfully.' }],
        file_cleanup: a.details.automatic_file_cleanup
          ? files.map((f) => {
              const removed = r.chance(0.9);
              return { filename: dir + f, removed, result: removed ? '' : 'The process cannot access the file because it is being used by another process.' };
            })
          : [],
      };
    }
    case 'dns':
      return { query: a.details.domain, query_type: a.details.query_type, answer: blocked ? '0.0.0.0 (sinkholed)' : `198.51.100.${r.int(2, 250)}` };
    case 'port_scan':
      return { ports_list: a.details.ports_list, open_ports: blocked ? [] : r.sample([22, 135, 139, 445, 3389, 5985, 1433, 3306], r.int(1, 4)) };
    case 'file_transfer':
      return { bytes: r.int(1000, 2_000_000), sha256_match: !blocked };
    case 'email':
      return { message_id: `<${r.hex(16)}@mail.corp.example.com>`, delivered: !blocked };
    case 'web_request':
      return { status_code: blocked ? 403 : 200, response_time_ms: r.int(20, 900) };
    case 'cloud':
      return { logs: a.details.scripts.map((s) => `${s.name}: ${blocked && s.script_type === null ? 'AccessDenied' : 'ok'}`) };
    default:
      return { summary: blocked ? 'Connection reset after 3 packets.' : 'All packets replayed.' };
  }
}

/** The outcome of one action that ran, with the integration events behind its counts. */
export function ranResult(
  r: Rng,
  a: ActionRow,
  effectiveness: number,
  ctx: { devices: readonly DeviceRow[]; integrations: readonly IntegrationRow[]; node: NodeRow | undefined; at: string; files: readonly string[] },
): { result: RanResult; events: PlannedEvent[] } {
  const variant = r.weighted<RanVariant>([
    ['blocked', 10 + 40 * effectiveness],
    ['not_blocked', 30 - 20 * effectiveness],
    ['alerted', 15],
    ['events', 15],
    ['no_events', 10],
  ]);
  let blocked: boolean | null = null;
  let alerted = false;
  let events = 0;
  if (variant === 'blocked') {
    blocked = true;
    alerted = r.chance(0.25);
    events = r.int(0, 3) + (alerted ? 1 : 0);
  } else if (variant === 'not_blocked') {
    blocked = false;
    events = r.chance(0.3) ? r.int(1, 2) : 0;
  } else if (variant === 'alerted') {
    blocked = r.chance(0.5) ? false : null;
    alerted = true;
    events = r.int(1, 6);
  } else if (variant === 'events') {
    events = r.int(1, 6);
  }
  const suspect_events = events > 0 && r.chance(0.25) ? r.int(1, 2) : 0;
  const names = INTEGRATIONS_BY_TYPE[a.action_type] ?? NETWORK_INTEGRATIONS;
  const pool = ctx.integrations.filter((i) => names.includes(i.name));
  const planned: PlannedEvent[] = [];
  const host = ctx.node?.name ?? 'unknown';
  for (let i = 0; i < events + suspect_events; i++) {
    const integration = r.pick(pool.length ? pool : ctx.integrations);
    const suspicious = i >= events;
    const signature = suspicious ? `Anomalous ${a.action_type.replace(/_/g, ' ')} activity` : a.name.split(' - ')[1] ?? a.name;
    const severity: EventSeverity = suspicious ? 'low' : r.pick(['medium', 'high', 'critical'] as const);
    planned.push({
      integration_id: integration.id,
      description: `${integration.name}: ${signature} on ${host}`,
      raw_event: JSON.stringify({
        _time: ctx.at,
        host,
        src_ip: ctx.node?.sim_address ?? '',
        signature,
        severity,
        action: blocked ? 'blocked' : 'allowed',
        vendor_product: integration.name,
      }),
      suspicious,
      alert: alerted && !suspicious,
      severity,
    });
  }
  const detecting = [...new Set(planned.filter((e) => !e.suspicious).map((e) => ctx.integrations.find((i) => i.id === e.integration_id)?.name ?? ''))];
  return {
    result: {
      alerted,
      blocked,
      blocked_msg: blocked === null ? null : blockedMessage(r, a, ctx.devices, blocked),
      detected_msg: events > 0 ? `Detected by ${detecting.join(', ')} (${events} event${events === 1 ? '' : 's'})` : null,
      events,
      suspect_events,
      evidence: evidence(r, a, blocked === true, ctx.files),
    },
    events: planned,
  };
}

export const ERROR_REASONS = [
  'Actor did not respond within 300 seconds.',
  'Timed out waiting for the destination actor to listen on the server port.',
  'Protected theater revert failed: snapshot not found.',
  'Script exited with code 1: botocore.exceptions.NoCredentialsError.',
  'Delivery failed: destination directory does not exist.',
];
