/**
 * `npx tsx server/pcap/cli.ts FILE` prints FILE's conversations in the layout of
 * `tshark -q -z conv,tcp -z conv,udp -r FILE` (for comparing the two by hand).
 */
import fs from 'node:fs';
import { analyzeStream } from './analyze';
import { formatTsharkConversations } from './tshark-format';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx server/pcap/cli.ts FILE');
  process.exit(2);
}
const a = await analyzeStream(fs.createReadStream(file, { highWaterMark: 1 << 20 }));
process.stdout.write(formatTsharkConversations(a.rows));
if (a.reader.error) console.error(`error: ${a.reader.error}`);
for (const n of a.reader.notes) console.error(`note: ${n}`);
