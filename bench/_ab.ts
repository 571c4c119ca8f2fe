import { paletteRows } from '../src/commands/palette-rows';
const VERBS = ['Open', 'Run', 'Deploy', 'Inspect', 'Export', 'Archive', 'Schedule', 'Validate', 'Clone', 'Compare'];
const NOUNS = ['Network Action', 'Host Action', 'Evaluation', 'Sequence', 'Report', 'Actor', 'Monitor', 'Dashboard', 'Job Result', 'Agent Token', 'Email Profile', 'Zone'];
const CATEGORIES = ['Actions', 'Jobs', 'Simulations', 'Evaluations', 'Sequences', 'Actors', 'Monitors', 'Reports', 'Dashboards', 'Topology', 'Integrations', 'Tags', 'Files', 'Packet Captures', 'Accounts', 'Settings', 'Scripts', 'Queue', 'Approvals', 'MITRE'];
const commands: any[] = Array.from({ length: 10000 }, (_, i) => ({ id: `bench.cmd${i}`, title: `${VERBS[i % VERBS.length]} ${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]} ${i}`, category: CATEGORIES[i % CATEGORIES.length]!, keywords: i % 3 === 0 ? ['bulk', 'csv', NOUNS[i % NOUNS.length]!.toLowerCase()] : undefined, run: () => undefined }));
const Q = ['deploy', 'export', 'netwac', 'agent9', 'sch mo', 'qqqqqq', 'run seq', 'dns', 'open job result 12'];
paletteRows(commands, '', []);
const per: number[] = [];
for (let r = 0; r < 10; r++) for (const q of Q) for (let n = 1; n <= q.length; n++) { const t0 = process.cpuUsage(); paletteRows(commands, q.slice(0, n), []); const u = process.cpuUsage(t0); per.push((u.user + u.system) / 1000); }
per.sort((a, b) => a - b);
console.log(process.argv[2] ?? '', 'cpu ms p50', per[Math.floor(per.length / 2)]!.toFixed(2), 'p95', per[Math.floor(per.length * 0.95)]!.toFixed(2), 'total', per.reduce((a, b) => a + b).toFixed(0));
