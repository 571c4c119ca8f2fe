import { DAY, iso, type Rng } from './random';
import type { SimulationRow, SimulationStepActionRow, SimulationStepRow, SimulationTagRow } from './types';

interface SimSpec {
  name: string;
  type: 'sequence' | 'eval';
  description: string;
  vendor?: boolean;
  tags: string[];
  /** [step name, catalog keys of its actions]. */
  steps: [string, string[]][];
}

export const SIMULATIONS: readonly SimSpec[] = [
  {
    name: 'Ransomware Kill Chain - LockBit 3.0',
    type: 'sequence',
    description: 'Follows a LockBit 3.0 affiliate from a phishing attachment through discovery and credential theft to shadow copy deletion and encryption in the protected theater.',
    vendor: true,
    tags: ['Malware:LockBit', 'Group:Ransomware Readiness', 'TA0040'],
    steps: [
      ['Initial Access', ['em-macro']],
      ['Execution', ['hc-encoded-ps']],
      ['Discovery', ['hc-adfind']],
      ['Credential Access', ['hc-procdump']],
      ['Ingress Tool Transfer', ['ft-lockbit-https']],
      ['Inhibit System Recovery', ['hc-vssadmin', 'sleep-30']],
      ['Impact', ['hc-lockbit']],
    ],
  },
  {
    name: 'APT29 Emulation - Phishing to Exfiltration',
    type: 'sequence',
    description: 'Emulates APT29 tradecraft: credential phishing, Cobalt Strike command and control, credential dumping and exfiltration over DNS and web services.',
    vendor: true,
    tags: ['Threat Actor:APT29', 'Group:Purple Team Week'],
    steps: [
      ['Phishing', ['em-link', 'web-o365']],
      ['Command and Control', ['dns-cobalt', 'web-cs-jquery', 'pcap-cs-https']],
      ['Credential Access', ['hc-mimikatz']],
      ['Exfiltration', ['ft-dns-tunnel', 'wr-paste']],
    ],
  },
  {
    name: 'Perimeter Control Validation - Inbound',
    type: 'eval',
    description: 'Scans, web application attacks and network exploits from the Internet against the DMZ.',
    tags: ['Src:External+Dst:Internal', 'Control:WAF', 'Control:Network IPS'],
    steps: [
      ['Scanning', ['ps-top100']],
      ['Web Application Attacks', ['wr-sqli', 'wr-log4shell', 'wr-traversal', 'wr-cmdinj', 'wr-xss']],
      ['Network Exploits', ['pcap-eternalblue', 'pcap-rdp-brute']],
    ],
  },
  {
    name: 'Email Gateway Assessment',
    type: 'eval',
    description: 'Malicious attachments, credential phishing links and a business email compromise lure sent through the mail gateway.',
    tags: ['Control:Email Gateway'],
    steps: [
      ['Attachments', ['em-macro', 'em-emotet', 'em-eicar']],
      ['Links and Social Engineering', ['em-link', 'em-bec']],
    ],
  },
  {
    name: 'Command and Control Channels',
    type: 'eval',
    description: 'Known C2 domains, DGA lookups, DNS tunnelling, HTTP beacons and raw socket RATs leaving the network.',
    vendor: true,
    tags: ['TA0011', 'Src:Internal+Dst:External'],
    steps: [
      ['DNS', ['dns-cobalt', 'dns-dga', 'dns-txt-tunnel', 'dns-emotet', 'cdns-lazarus', 'cdns-fastflux']],
      ['HTTP and TLS', ['web-cs-jquery', 'pcap-trickbot', 'cpcap-qakbot', 'cpcap-asyncrat', 'cpcap-icedid']],
      ['Raw Sockets', ['sock-njrat']],
    ],
  },
  {
    name: 'Endpoint Credential Access Coverage',
    type: 'eval',
    description: 'Every credential theft technique we expect the EDR to prevent.',
    tags: ['TA0006', 'Control:Endpoint EDR'],
    steps: [['Credential Access', ['hc-mimikatz', 'hc-procdump', 'hc-sam', 'hc-kerberoast']]],
  },
  {
    name: 'Internal Segmentation - User to Server VLAN',
    type: 'sequence',
    description: 'Checks that the segmentation firewall keeps workstations away from admin and database ports and stops SMB exploitation.',
    tags: ['Src:Internal+Dst:Internal', 'PCI Scope'],
    steps: [
      ['Discovery', ['ps-admin', 'ps-db']],
      ['Lateral Movement', ['sock-smbv1', 'pcap-eternalblue']],
      ['Tool Transfer', ['ft-xmrig-scp']],
    ],
  },
  {
    name: 'Data Exfiltration Over Alternative Protocols',
    type: 'eval',
    description: 'DNS and ICMP tunnels, raw UDP, FTP and paste sites as exfiltration channels for DLP and IPS.',
    tags: ['TA0010', 'Control:DLP'],
    steps: [['Exfiltration', ['ft-dns-tunnel', 'ft-icmp-tunnel', 'sock-udp-exfil', 'ft-agenttesla-ftp', 'wr-paste']]],
  },
  {
    name: 'Cloud Control Plane Checks - AWS',
    type: 'sequence',
    description: 'Discovery, persistence, public exposure and exfiltration in the production AWS account.',
    tags: ['OS:Cloud', 'Control:Cloud Security Posture'],
    steps: [
      ['Discovery', ['cl-enum']],
      ['Persistence', ['cl-iam-key']],
      ['Exposure', ['cl-s3-public', 'sleep-300']],
      ['Exfiltration', ['cl-exfil-s3']],
    ],
  },
  {
    name: 'Malware Delivery over Web',
    type: 'eval',
    description: 'Payload URLs, exploit kits, malvertising and executable downloads through the web proxy.',
    tags: ['Control:Web Proxy'],
    steps: [
      ['URLs', ['curl-qakbot', 'curl-phishkit', 'curl-exploitkit', 'web-malvert']],
      ['Downloads', ['ft-mimikatz-http', 'ft-eicar-nested']],
    ],
  },
  {
    name: 'Endpoint Persistence and Defense Evasion',
    type: 'sequence',
    description: 'Scheduled tasks, run keys, tampering with Defender, clearing logs and Linux cron persistence.',
    tags: ['TA0003', 'TA0005', 'Control:Endpoint EDR'],
    steps: [
      ['Windows Persistence', ['hc-schtasks', 'hc-runkey']],
      ['Defense Evasion', ['hc-defender-off', 'hc-clear-logs']],
      ['Linux', ['hc-cron', 'hc-python-recon']],
    ],
  },
  {
    name: 'Daily Hygiene Check',
    type: 'eval',
    description: 'A small scheduled set run every morning to catch configuration drift.',
    tags: ['Owner:SOC'],
    steps: [
      ['Daily', ['dns-mx', 'dns-doh', 'em-eicar', 'sleep-30', 'ft-eicar-nested']],
      ['Retired Checks', ['ps-ics']],
    ],
  },
  {
    name: 'Azure Identity Abuse',
    type: 'sequence',
    description: 'Adds a credential to a service principal; waits for approval of its helper script.',
    tags: ['OS:Cloud', 'Threat Actor:APT29'],
    steps: [['Persistence', ['cl-azure-sp']]],
  },
  {
    name: 'Captive Threat Intel Replay',
    type: 'eval',
    description: 'Replays current threat intelligence indicators against captive servers.',
    vendor: true,
    tags: ['Malware:QakBot'],
    steps: [['Indicators', ['cdns-killswitch', 'cdns-fastflux', 'curl-qakbot', 'cpcap-qakbot']]],
  },
];

export interface SimulationSet {
  simulations: SimulationRow[];
  simulation_steps: SimulationStepRow[];
  simulation_step_actions: SimulationStepActionRow[];
  simulation_tags: SimulationTagRow[];
}

export function buildSimulations(rng: Rng, now: number, userIds: readonly number[], actionId: (key: string) => number, tagId: (key: string) => number): SimulationSet {
  const out: SimulationSet = { simulations: [], simulation_steps: [], simulation_step_actions: [], simulation_tags: [] };
  const used = new Set<string>();
  SIMULATIONS.forEach((spec, i) => {
    const id = i + 1;
    const r = rng.fork(`sim:${spec.name}`);
    let vid = '';
    do vid = `S${spec.vendor ? r.pick(['100', '104']) : r.pick(['000', '201', '250'])}-${String(r.int(100, 999))}`;
    while (used.has(vid));
    used.add(vid);
    const created = now - r.int(30, 500) * DAY;
    out.simulations.push({
      id,
      vid,
      name: spec.name,
      description: spec.description,
      simulation_type: spec.type,
      disabled: false,
      decommissioned: false,
      created_by: spec.vendor || userIds.length === 0 ? null : r.pick(userIds),
      created_at: iso(created),
      updated_at: iso(created + r.int(0, 25) * DAY),
    });
    for (const t of spec.tags) out.simulation_tags.push({ simulation_id: id, tag_id: tagId(t) });
    spec.steps.forEach(([name, keys], position) => {
      const stepId = out.simulation_steps.length + 1;
      out.simulation_steps.push({ id: stepId, simulation_id: id, position, name });
      keys.forEach((key, p) => out.simulation_step_actions.push({ id: out.simulation_step_actions.length + 1, step_id: stepId, action_id: actionId(key), position: p }));
    });
  });
  return out;
}
