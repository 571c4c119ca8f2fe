/**
 * Derives the compact ATT&CK data file the workbench and the director read (src/api/contracts/attack/enterprise.json)
 * from MITRE's STIX data (https://github.com/mitre/cti, folder enterprise-attack), and copies MITRE's
 * licence beside it. Nothing is typed by hand: tactics come from the x-mitre-tactic objects in the order
 * of the Enterprise matrix (x-mitre-matrix tactic_refs), techniques from the attack-pattern objects
 * (revoked and deprecated ones left out) with their kill-chain phases as tactic links.
 *
 *   npx tsx scripts/attack-data.ts /path/to/cti          (a checkout of mitre/cti)
 *   npx tsx scripts/attack-data.ts /path/to/cti.git      (a bare git directory: read with git show)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

interface StixObject {
  type: string;
  id: string;
  name?: string;
  revoked?: boolean;
  x_mitre_deprecated?: boolean;
  x_mitre_shortname?: string;
  x_mitre_version?: string;
  x_mitre_is_subtechnique?: boolean;
  tactic_refs?: string[];
  kill_chain_phases?: { kill_chain_name: string; phase_name: string }[];
  external_references?: { source_name: string; external_id?: string }[];
}

const arg = process.argv[2];
if (!arg) {
  console.error('usage: tsx scripts/attack-data.ts <mitre/cti checkout or git dir>');
  process.exit(2);
}
const source: string = arg;
const isGitDir = fs.existsSync(path.join(source, 'HEAD')) && !fs.existsSync(path.join(source, 'enterprise-attack'));

function listFolder(folder: string): string[] {
  if (isGitDir) {
    const out = execFileSync('git', ['--git-dir', source, 'ls-tree', '--name-only', 'HEAD', `${folder}/`], { encoding: 'utf8' });
    return out.split('\n').filter((f) => f.endsWith('.json'));
  }
  return fs.readdirSync(path.join(source, folder)).filter((f) => f.endsWith('.json')).map((f) => `${folder}/${f}`);
}

function readFile(file: string): string {
  if (isGitDir) return execFileSync('git', ['--git-dir', source, 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return fs.readFileSync(path.join(source, file), 'utf8');
}

function objectsOf(folder: string): StixObject[] {
  return listFolder(`enterprise-attack/${folder}`).flatMap((f) => (JSON.parse(readFile(f)) as { objects: StixObject[] }).objects);
}

const attackId = (o: StixObject) => o.external_references?.find((r) => r.source_name === 'mitre-attack')?.external_id ?? '';
const live = (o: StixObject) => !o.revoked && !o.x_mitre_deprecated;

const matrix = objectsOf('x-mitre-matrix').find((o) => o.type === 'x-mitre-matrix');
if (!matrix?.tactic_refs) throw new Error('No Enterprise matrix found');
const tacticObjects = new Map(objectsOf('x-mitre-tactic').map((o) => [o.id, o]));
const tactics = matrix.tactic_refs.map((ref) => {
  const t = tacticObjects.get(ref);
  if (!t) throw new Error(`Tactic ${ref} of the matrix is missing`);
  return { id: attackId(t), name: t.name ?? '', shortname: t.x_mitre_shortname ?? '' };
});
const tacticByShortname = new Map(tactics.map((t) => [t.shortname, t.id]));

const techniques = objectsOf('attack-pattern')
  .filter((o) => o.type === 'attack-pattern' && live(o) && attackId(o))
  .map((o) => ({
    id: attackId(o),
    name: o.name ?? '',
    tactics: (o.kill_chain_phases ?? [])
      .filter((k) => k.kill_chain_name === 'mitre-attack')
      .map((k) => tacticByShortname.get(k.phase_name))
      .filter((t): t is string => !!t),
  }))
  .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));

const version = execFileSync('git', isGitDir ? ['--git-dir', source, 'log', '-1', '--format=%s'] : ['-C', source, 'log', '-1', '--format=%s'], { encoding: 'utf8' }).trim();
const outDir = path.resolve(import.meta.dirname, '../src/api/contracts/attack');
const data = {
  source: 'https://github.com/mitre/cti enterprise-attack',
  version,
  tactics: tactics.map(({ id, name }) => ({ id, name })),
  // [id, name, tactic ids]: compact rows (a sub-technique's id has a dot; its parent is the part before).
  techniques: techniques.map((t) => [t.id, t.name, t.tactics]),
};
fs.writeFileSync(path.join(outDir, 'enterprise.json'), `${JSON.stringify(data)}\n`);
const licence = readFile('LICENSE.txt').split('\nCAPEC')[0]!.trim();
fs.writeFileSync(path.join(outDir, 'LICENSE-ATTACK.txt'), `${licence}\n`);
console.log(`${tactics.length} tactics, ${techniques.length} techniques (${version}) written to ${outDir}`);
