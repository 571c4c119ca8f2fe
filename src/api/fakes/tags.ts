import { TACTICS, TECHNIQUES } from './attack';
import type { TagClass, TagRow, TagTacticRow } from './types';

/** Tags by family. tag_type is the group a tag is listed under. */
const USER_TAGS: readonly (readonly [name: string, tagType: string])[] = [
  ['Group:Ransomware Readiness', 'user'],
  ['Group:Quarterly Board Report', 'user'],
  ['Group:Purple Team Week', 'user'],
  ['Priority:High', 'user'],
  ['Priority:Low', 'user'],
  ['Owner:SOC', 'user'],
  ['Owner:Red Team', 'user'],
  ['Crown Jewels', 'user'],
  ['PCI Scope', 'user'],
  ['Lab Only', 'user'],
  ['Windows Fleet', 'user'],
  ['HQ', 'user'],
  ['Branch Office', 'user'],
  ['Sandbox', 'user'],
];

const VERODIN_TAGS: readonly (readonly [name: string, tagType: string])[] = [
  ['OS:Windows', 'os'],
  ['OS:Linux', 'os'],
  ['OS:macOS', 'os'],
  ['OS:Cloud', 'os'],
  ['Src:Internal+Dst:External', 'src_dst'],
  ['Src:External+Dst:Internal', 'src_dst'],
  ['Src:Internal+Dst:Internal', 'src_dst'],
  ['Control:Network IPS', 'control'],
  ['Control:Endpoint EDR', 'control'],
  ['Control:Email Gateway', 'control'],
  ['Control:Web Proxy', 'control'],
  ['Control:DLP', 'control'],
  ['Control:WAF', 'control'],
  ['Control:Cloud Security Posture', 'control'],
  ['Malware:Cobalt Strike', 'malware_family'],
  ['Malware:Emotet', 'malware_family'],
  ['Malware:LockBit', 'malware_family'],
  ['Malware:QakBot', 'malware_family'],
  ['Malware:AgentTesla', 'malware_family'],
  ['Threat Actor:APT29', 'threat_actor'],
  ['Threat Actor:FIN7', 'threat_actor'],
  ['Threat Actor:Lazarus Group', 'threat_actor'],
  ['Threat Actor:Scattered Spider', 'threat_actor'],
  ['File:Malicious Sample', 'file_attachment'],
  ['File:Living off the Land Binary', 'file_attachment'],
  ['File:Office Document', 'file_attachment'],
  ['File:Script', 'file_attachment'],
  ['File:Test File', 'file_attachment'],
  // Product tags carrying an ATT&CK prefix: list mode hides them for user and verodin types.
  ['ATT&CK:T1059.001', 'verodin'],
  ['ATT&CK:T1003.001', 'verodin'],
  ['ATT&CK:T1071.004', 'verodin'],
];

export interface TagSet {
  tags: TagRow[];
  tag_tactics: TagTacticRow[];
  /** Tag id by ATT&CK code or by name; throws on an unknown key so content typos fail loudly. */
  id(key: string): number;
}

export function buildTags(): TagSet {
  const tags: TagRow[] = [];
  const byKey = new Map<string, number>();
  const add = (name: string, class_name: TagClass, tag_type: string, code: string | null, editable: boolean) => {
    const row: TagRow = { id: tags.length + 1, name, class_name, tag_type, code, editable };
    tags.push(row);
    byKey.set(name, row.id);
    if (code) byKey.set(code, row.id);
    return row.id;
  };
  for (const [code, name] of TACTICS) add(name, 'mitre_attack', 'mitre_attack', code, false);
  const tag_tactics: TagTacticRow[] = [];
  for (const [code, name, tactics] of TECHNIQUES) {
    const id = add(name, 'mitre_attack', 'mitre_attack', code, false);
    for (const t of tactics) {
      const tacticId = byKey.get(t);
      if (tacticId === undefined) throw new Error(`unknown tactic ${t}`);
      tag_tactics.push({ tag_id: id, tactic_tag_id: tacticId });
    }
  }
  for (const [name, type] of VERODIN_TAGS) add(name, 'verodin', type, null, false);
  for (const [name, type] of USER_TAGS) add(name, 'user', type, null, true);
  return {
    tags,
    tag_tactics,
    id(key) {
      const id = byKey.get(key);
      if (id === undefined) throw new Error(`unknown tag ${key}`);
      return id;
    },
  };
}
