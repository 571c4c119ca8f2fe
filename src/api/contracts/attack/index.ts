import data from './enterprise.json';

/**
 * MITRE ATT&CK Enterprise tactics (in matrix order) and techniques, derived from MITRE's STIX data by
 * scripts/attack-data.ts (see LICENSE-ATTACK.txt beside this file: © The MITRE Corporation, reproduced
 * with its permission). Shared by the director (tactic order of mitre_taam_data) and the ATT&CK view.
 */
export interface AttackTactic {
  id: string;
  name: string;
}

export interface AttackTechnique {
  id: string;
  name: string;
  tactics: string[];
  /** The parent technique's id of a sub-technique (T1059 for T1059.001), else null. */
  parent: string | null;
}

export const ATTACK_VERSION: string = data.version;
export const ATTACK_TACTICS: readonly AttackTactic[] = data.tactics;
export const ATTACK_TECHNIQUES: readonly AttackTechnique[] = (data.techniques as [string, string, string[]][]).map(([id, name, tactics]) => ({
  id,
  name,
  tactics,
  parent: id.includes('.') ? id.split('.')[0]! : null,
}));

const byId = new Map<string, AttackTactic | AttackTechnique>([...ATTACK_TACTICS, ...ATTACK_TECHNIQUES].map((x) => [x.id, x]));

/** The name of a tactic or technique id, or null when ATT&CK has no such id. */
export const attackName = (id: string): string | null => byId.get(id)?.name ?? null;
