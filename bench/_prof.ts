import { paletteRows } from '../src/commands/palette-rows';
const VERBS = ['Open', 'Run', 'Deploy', 'Inspect', 'Export', 'Archive', 'Schedule', 'Validate', 'Clone', 'Compare'];
const NOUNS = ['Network Action', 'Host Action', 'Evaluation', 'Sequence', 'Report', 'Actor', 'Monitor', 'Dashboard', 'Job Result', 'Agent Token', 'Email Profile', 'Zone'];
const CATEGORIES = ['Actions', 'Jobs', 'Simulations', 'Evaluations', 'Sequences', 'Actors', 'Monitors', 'Reports', 'Dashboards', 'Topology', 'Integrations', 'Tags', 'Files', 'Packet Captures', 'Accounts', 'Settings', 'Scripts', 'Queue', 'Approvals', 'MITRE'];
const commands: any[] = Array.from({ length: 10000 }, (_, i) => ({ id: `bench.cmd${i}`, title: `${VERBS[i % VERBS.length]} ${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]} ${i}`, category: CATEGORIES[i % CATEGORIES.length]!, keywords: i % 3 === 0 ? ['bulk', 'csv', NOUNS[i % NOUNS.length]!.toLowerCase()] : undefined, run: () => undefined }));
const Q = ['deploy', 'export', 'netwac', 'agent9', 'sch mo', 'qqqqqq', 'run seq', 'dns', 'open job result 12'];
paletteRows(commands, '', []);
for (const q of Q) for (let n = 1; n <= q.length; n++) { const t0 = process.cpuUsage(); for (let r=0;r<5;r++) paletteRows(commands, q.slice(0, n), []); const u=process.cpuUsage(t0); console.log(JSON.stringify(q.slice(0,n)).padEnd(22), ((u.user+u.system)/5000).toFixed(2)); }
import { prepareQuery, scorePrepared, wordStarts } from '../src/commands/fuzzy';
for (const q of ['ne', 'de', 'sc', 'run', 'netwac']) {
  const pq = prepareQuery(q);
  let title = 0, rest = 0, restPass = 0;
  const T = commands.map((c) => { const r = `${c.category} ${c.title} ${c.keywords?.join(' ') ?? ''}`; return [c.title.toLowerCase(), wordStarts(c.title), r.toLowerCase(), wordStarts(r)] as const; });
  const t0 = process.cpuUsage();
  for (let k = 0; k < 10; k++) for (const [lt, ts, lr, rs] of T) { if (scorePrepared(pq, lt, ts) !== null) { title++; continue; } if (scorePrepared(pq, lr, rs) !== null) restPass++; rest++; }
  const u = process.cpuUsage(t0);
  console.log('BREAK', q, title / 10, rest / 10, restPass / 10, ((u.user + u.system) / 10000).toFixed(2));
}
