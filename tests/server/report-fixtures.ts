import type { Db } from '../../server/db/index';

/**
 * The small world both report test files count by hand (tests/server/reports.test.ts over HTTP,
 * tests/server/reports-rollups.test.ts against the raw job actions): ATT&CK tags with their tactics, a
 * user tag and a control tag, two zones, and the actors, Actions, tags on Actions and simulations each
 * file lists.
 *
 *   901 Execution (TA0002), 902 Defense Evasion (TA0005): tactics
 *   903 Command and Scripting Interpreter (T1059, under TA0002), 904 Impair Defenses (T1562, under TA0005)
 *   905 'Crown Jewels' (a user tag), 906 'Control:Network IPS' (a control)
 *   zones 1 'Z1', 2 'Z2'
 */
export interface ReportWorld {
  /** [id, name, friendly name, zone id] */
  nodes: [number, string, string, number | null][];
  /** [id, vid, name, action type] */
  actions: [number, string, string, string][];
  /** [action id, tag id] */
  actionTags: [number, number][];
  /** [id, vid, name, simulation type] */
  simulations: [number, string, string, string][];
}

const lit = (v: string | number | null) => (v === null ? 'null' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);
const values = (rows: (string | number | null)[][]) => rows.map((r) => `(${r.map(lit).join(', ')})`).join(', ');

export async function seedReportWorld(db: Db, w: ReportWorld): Promise<void> {
  await db.exec(`
    insert into tags (id, name, class_name, tag_type, code, editable) values
      (901, 'Execution', 'mitre_attack', 'mitre_attack', 'TA0002', false),
      (902, 'Defense Evasion', 'mitre_attack', 'mitre_attack', 'TA0005', false),
      (903, 'Command and Scripting Interpreter', 'mitre_attack', 'mitre_attack', 'T1059', false),
      (904, 'Impair Defenses', 'mitre_attack', 'mitre_attack', 'T1562', false),
      (905, 'Crown Jewels', 'user', 'user', null, true),
      (906, 'Control:Network IPS', 'verodin', 'control', null, false);
    insert into tag_tactics (tag_id, tactic_tag_id) values (903, 901), (904, 902);
    insert into zones (id, name) values (1, 'Z1'), (2, 'Z2');
    insert into nodes (id, name, friendly_name, node_type, security_zone_id) values ${values(w.nodes.map(([id, name, friendly, zone]) => [id, name, friendly, 'endpoint', zone]))};
    insert into actions (id, vid, name, action_type) values ${values(w.actions)};
    insert into action_tags (action_id, tag_id) values ${values(w.actionTags)};
    insert into simulations (id, vid, name, simulation_type) values ${values(w.simulations)};
  `);
}

/** A small deterministic generator in [0, 1) (no Math.random: a failing seeded world must reproduce). */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
