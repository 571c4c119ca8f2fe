/**
 * Prints a capture's conversations in the layout of `tshark -q -z conv,tcp -z conv,udp -r FILE`,
 * with the director's parser (server/pcap/), for comparing the two by hand and for the benchmark:
 *
 *   npx tsx server/pcap/cli.ts FILE [--stats]
 *   npm run build:pcap-cli && node dist-cli/pcap-cli.cjs FILE [--stats]   (plain JS, no tsx start-up)
 *
 * --stats adds one JSON line on stderr: the parse time inside the process (first read to the rows),
 * packets, bytes, conversations and peak RSS.
 */
import fs from 'node:fs';
import { CaptureAnalyzer } from './analyze';
import { formatTsharkConversations } from './tshark-format';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('usage: pcap-cli FILE [--stats]');
  process.exit(2);
}
const t0 = process.hrtime.bigint();
const a = new CaptureAnalyzer();
const fd = fs.openSync(file, 'r');
// One reused buffer: the reader copies only a record cut by a chunk boundary.
const chunk = Buffer.allocUnsafe(1 << 20);
for (;;) {
  const n = fs.readSync(fd, chunk, 0, chunk.length, null);
  if (n <= 0 || !a.wantsMore) break;
  a.push(n === chunk.length ? chunk : chunk.subarray(0, n));
}
fs.closeSync(fd);
const res = a.end();
const parseMs = Number(process.hrtime.bigint() - t0) / 1e6;
process.stdout.write(formatTsharkConversations(res.rows));
if (res.reader.error) console.error(`error: ${res.reader.error}`);
for (const n of res.reader.notes) console.error(`note: ${n}`);
if (process.argv.includes('--stats')) {
  const stats = { parseMs, packets: res.reader.packets, bytes: res.reader.bytes, rows: res.rows.length, maxRssKb: process.resourceUsage().maxRSS };
  console.error(JSON.stringify(stats));
}
