import { paletteRows } from '../src/commands/palette-rows';
const VERBS = ['Open', 'Run', 'Deploy', 'Inspect', 'Export', 'Archive', 'Schedule', 'Validate', 'Clone', 'Compare'];
const NOUNS = ['Network Action', 'Host Action', 'Evaluation', 'Sequence', 'Report', 'Actor', 'Monitor', 'Dashboard', 'Job Result', 'Agent Token', 'Email Profile', 'Zone'];
const CATEGORIES = ['Actions', 'Jobs', 'Simulations', 'Evaluations', 'Sequences', 'Actors', 'Monitors', 'Reports', 'Dashboards', 'Topology', 'Integrations', 'Tags', 'Files', 'Packet Captures', 'Accounts', 'Settings', 'Scripts', 'Queue', 'Approvals', 'MITRE'];
const commands: any[] = Array.from({ length: 10000 }, (_, i) => ({ id: `bench.cmd${i}`, title: `${VERBS[i % VERBS.length]} ${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]} ${i}`, category: CATEGORIES[i % CATEGORIES.length]!, keywords: i % 3 === 0 ? ['bulk', 'csv', NOUNS[i % NOUNS.length]!.toLowerCase()] : undefined, run: () => undefined }));
const Q = ['deploy', 'export', 'netwac', 'agent9', 'sch mo', 'qqqqqq', 'run seq', 'dns', 'open job result 12'];
const recent = commands.slice(0, 20).map((c) => c.id);
const acc = new Map<string, number[]>();
for (let r = 0; r < 20; r++) { const list = [...commands]; paletteRows(list, '', recent); for (const q of Q) for (let n = 1; n <= q.length; n++) { const k = q.slice(0, n); const c0 = process.cpuUsage(); paletteRows(list, k, recent); const c = process.cpuUsage(c0); acc.set(k, [...(acc.get(k) ?? []), (c.user + c.system) / 1000]); } }
const med = [...acc].map(([k, xs]) => [k, xs.sort((a, b) => a - b)[10]!] as const).sort((a, b) => b[1] - a[1]);
console.log(med.slice(0, 14).map(([k, v]) => `${JSON.stringify(k)} ${v.toFixed(2)}`).join('\n'));
