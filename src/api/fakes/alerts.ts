import type { Rng } from './random';
import type { ActionRow, ActionType, DetectionAlertRow, SignatureRow } from './types';

/** The open ruleset: its rows link to external rule documentation. */
export const OPEN_RULESET_SOURCE = 'ET Open';

type Template = readonly [source: string, message: string, sid: string];

/** Common detection alerts of an Action, by type; s is the Action's subject, t its first ATT&CK technique. */
function templatesFor(a: ActionRow, s: string, t: string): readonly Template[] {
  switch (a.action_type) {
    case 'dns':
      return [
        [OPEN_RULESET_SOURCE, `ET DNS Query to a Known Malicious Domain (${a.details.domain})`, '2027757'],
        ['Palo Alto Networks', `Suspicious DNS Query (${a.details.domain})`, '109001001'],
        ['Zscaler', `DNS request blocked: ${s}`, 'ZS-DNS-0415'],
      ];
    case 'captive_dns':
      return [
        [OPEN_RULESET_SOURCE, `ET MALWARE Known Malicious Domain in DNS Lookup (${a.details.query})`, '2042936'],
        ['Palo Alto Networks', `generic:${a.details.query} (DNS sinkhole)`, '12000412'],
      ];
    case 'captive_ioc_url':
      return [
        [OPEN_RULESET_SOURCE, `ET MALWARE Possible ${s} Request`, '2044231'],
        ['Zscaler', 'Blocked URL category: Malware Sites', 'ZS-URL-MAL'],
      ];
    case 'captive_ioc_pcap':
    case 'pcap':
      return [
        [OPEN_RULESET_SOURCE, `ET MALWARE ${s} Activity Observed`, '2030342'],
        ['Snort Talos', `MALWARE-CNC ${s} outbound connection`, '56122'],
        ['Palo Alto Networks', `Spyware: ${s} Command and Control Traffic`, '86654'],
      ];
    case 'port_scan':
      return [
        [OPEN_RULESET_SOURCE, 'ET SCAN Behavioral Unusual Port Scan Detected', '2001569'],
        ['Palo Alto Networks', 'TCP Port Scan', '8001'],
        ['Snort Talos', `PROTOCOL-SCAN ${s}`, '1228'],
      ];
    case 'socket':
      return [
        [OPEN_RULESET_SOURCE, `ET MALWARE ${s}`, '2033132'],
        ['Palo Alto Networks', `Unknown-${a.details.comm_type.toUpperCase()} traffic on port ${a.details.server_port}`, '8501'],
      ];
    case 'website':
      return [
        [OPEN_RULESET_SOURCE, `ET PHISHING Possible ${s}`, '2031127'],
        ['Zscaler', `Suspicious page blocked (${s})`, 'ZS-PHISH-01'],
      ];
    case 'web_request':
      return [
        [OPEN_RULESET_SOURCE, `ET WEB_SERVER ${s}`, '2006446'],
        ['F5 BIG-IP Advanced WAF', `Attack signature detected: ${s}`, '200002835'],
        ['Palo Alto Networks', `${s} Vulnerability`, '91991'],
      ];
    case 'file_transfer':
      return [
        [OPEN_RULESET_SOURCE, 'ET POLICY PE EXE or DLL Windows file download HTTP', '2018959'],
        ['Palo Alto Networks', `Virus/Win32.WGeneric (${s})`, '520135123'],
        ['Snort Talos', 'FILE-EXECUTABLE Portable Executable binary file magic detected', '15306'],
      ];
    case 'email':
      return [
        ['Proofpoint TAP', `Threat detected: ${s}`, 'PP-TAP-0231'],
        ['Microsoft Defender for Office 365', 'Email messages containing malicious content removed after delivery', 'MDO-ZAP-02'],
      ];
    case 'host_cli':
      return [
        ['CrowdStrike Falcon', `${s} (${t})`, t],
        ['Microsoft Defender for Endpoint', `Suspicious behavior: ${s}`, t],
        ['Splunk Enterprise Security', `ESCU - ${s} - Rule`, `ESCU-${t}`],
      ];
    case 'cloud':
      return [
        ['AWS GuardDuty', `Finding: ${s}`, `GD-${t}`],
        ['Microsoft Defender for Cloud', `Suspicious cloud activity: ${s}`, `MDC-${t}`],
      ];
    case 'sleep':
      return [];
  }
}

function subject(a: ActionRow): string {
  const part = a.name.split(' - ')[1] ?? a.name;
  return part.replace(/\s*\(.*\)\s*$/, '');
}

const NETWORK_TYPES: readonly ActionType[] = ['dns', 'captive_dns', 'captive_ioc_url', 'captive_ioc_pcap', 'pcap', 'socket', 'website', 'web_request', 'file_transfer', 'port_scan'];

/** DNS wire-format content for a Snort rule: |len|label|len|label...|00|. */
function dnsContent(domain: string): string {
  return domain
    .split('.')
    .map((l) => `|${l.length.toString(16).padStart(2, '0')}|${l}`)
    .join('')
    .concat('|00|');
}

function signatureText(a: ActionRow, sid: number): string {
  const msg = `VIGIL ${a.name.replace(/"/g, "'").replace(/;/g, ',')}`;
  const tail = `sid:${sid}; rev:${1 + (sid % 3)};)`;
  switch (a.action_type) {
    case 'dns':
      return `alert udp $HOME_NET any -> any 53 (msg:"${msg}"; content:"${dnsContent(a.details.domain)}"; nocase; classtype:trojan-activity; ${tail}`;
    case 'captive_dns':
      return `alert udp $HOME_NET any -> any 53 (msg:"${msg}"; content:"${dnsContent(a.details.query)}"; nocase; classtype:trojan-activity; ${tail}`;
    case 'web_request':
      return `alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"${msg}"; flow:established,to_server; http.uri; content:"${a.details.path}"; classtype:web-application-attack; ${tail}`;
    case 'socket':
      return `alert ${a.details.comm_type} $HOME_NET any -> $EXTERNAL_NET ${a.details.server_port} (msg:"${msg}"; dsize:>8; classtype:command-and-control; ${tail}`;
    case 'port_scan':
      return `alert tcp $EXTERNAL_NET any -> $HOME_NET any (msg:"${msg}"; flags:S,12; detection_filter:track by_src, count 20, seconds 10; classtype:attempted-recon; ${tail}`;
    case 'file_transfer':
      return `alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"${msg}"; flow:established,to_client; file_data; content:"MZ"; depth:2; classtype:trojan-activity; ${tail}`;
    default:
      return `alert tcp $HOME_NET any -> $EXTERNAL_NET any (msg:"${msg}"; flow:established,to_server; classtype:trojan-activity; ${tail}`;
  }
}

export function buildDetectionContent(
  rng: Rng,
  actions: readonly ActionRow[],
  techniquesOf: (actionId: number) => readonly string[],
): { detection_alerts: DetectionAlertRow[]; signatures: SignatureRow[] } {
  const detection_alerts: DetectionAlertRow[] = [];
  const signatures: SignatureRow[] = [];
  for (const a of actions) {
    const r = rng.fork(`alerts:${a.vid}`);
    const templates = templatesFor(a, subject(a), techniquesOf(a.id)[0] ?? 'T0000');
    for (const [source, message, source_identifier] of r.sample(templates, r.int(templates.length ? 1 : 0, templates.length))) {
      detection_alerts.push({ id: detection_alerts.length + 1, action_id: a.id, source, message, source_identifier });
    }
    if (NETWORK_TYPES.includes(a.action_type)) {
      const n = r.int(1, 2);
      for (let i = 0; i < n; i++) signatures.push({ id: signatures.length + 1, action_id: a.id, text: signatureText(a, 9100000 + a.id * 10 + i) });
    }
  }
  return { detection_alerts, signatures };
}
