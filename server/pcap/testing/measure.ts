/**
 * Parses one capture file and prints one JSON line: wall time, packets, conversations, peak RSS.
 * Run in its own process by the benchmark so peak RSS belongs to the parse alone:
 *   node --import tsx server/pcap/testing/measure.ts FILE [--out TSHARK_FORMAT_FILE]
 */
import fs from 'node:fs';
import { CaptureAnalyzer } from '../analyze';
import { formatTsharkConversations } from '../tshark-format';

const file = process.argv[2];
if (!file) throw new Error('usage: measure.ts FILE [--out FILE]');
const outIdx = process.argv.indexOf('--out');
const t0 = process.hrtime.bigint();
const a = new CaptureAnalyzer();
const fd = fs.openSync(file, 'r');
const chunk = Buffer.allocUnsafe(1 << 20);
for (;;) {
  const n = fs.readSync(fd, chunk, 0, chunk.length, null);
  if (n <= 0) break;
  a.push(chunk.subarray(0, n));
}
fs.closeSync(fd);
const res = a.end();
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (outIdx > 0 && process.argv[outIdx + 1]) fs.writeFileSync(process.argv[outIdx + 1]!, formatTsharkConversations(res.rows));
console.log(JSON.stringify({ ms, packets: res.reader.packets, bytes: res.reader.bytes, rows: res.rows.length, maxRssKb: process.resourceUsage().maxRSS }));
