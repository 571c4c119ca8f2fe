/**
 * Mutation fuzzing of the whole PCAP path: random byte flips at about 2% (as Wireshark's fuzz-test
 * uses editcap -E 0.02), truncations, huge length fields, inserted and deleted bytes, fed in random
 * chunk sizes; each input goes through the analyzer, the assessment, the tshark rendering, and now
 * and then the processed-capture writer and the Packet View reader. Anything thrown is a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaptureAnalyzer } from '../analyze';
import { assess } from '../assess';
import { formatTsharkConversations } from '../tshark-format';
import { writeProcessedCapture } from '../transform';
import { readPackets, summarizePacket, storedInfo } from '../store';
import { prng } from './builder';

export interface FuzzStats {
  inputs: number;
  /** Inputs the reader refused or stopped on with an error. */
  errors: number;
  /** Inputs that produced at least one conversation. */
  withConversations: number;
  /** Inputs that went through the processed-capture writer too. */
  written: number;
  slowestMs: number;
  failures: { seed: number; mutation: string; error: string }[];
}

type Rnd = () => number;

function mutate(seed: Buffer, rnd: Rnd): { data: Buffer; what: string } {
  const kind = Math.floor(rnd() * 6);
  const b = Buffer.from(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  switch (kind) {
    case 0: {
      // Byte flips at ~2%.
      for (let i = 0; i < b.length; i++) if (rnd() < 0.02) b[i] = int(256);
      return { data: b, what: 'flips 2%' };
    }
    case 1: {
      const n = int(b.length + 1);
      return { data: b.subarray(0, n), what: `truncate to ${n}` };
    }
    case 2: {
      // Huge or odd length fields at a random aligned offset, either byte order.
      const values = [0xffffffff, 0x7fffffff, 0x80000000, 262145, 65536, 0, 1, 3, 11, 12];
      const times = 1 + int(3);
      for (let k = 0; k < times && b.length >= 4; k++) {
        const at = Math.min(b.length - 4, int(b.length) & ~3);
        const v = values[int(values.length)]!;
        if (rnd() < 0.5) b.writeUInt32LE(v >>> 0, at);
        else b.writeUInt32BE(v >>> 0, at);
      }
      return { data: b, what: 'length fields' };
    }
    case 3: {
      const at = int(b.length + 1);
      const ins = Buffer.alloc(1 + int(64));
      for (let i = 0; i < ins.length; i++) ins[i] = int(256);
      return { data: Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]), what: `insert ${ins.length} at ${at}` };
    }
    case 4: {
      const at = int(b.length + 1);
      const n = 1 + int(64);
      return { data: Buffer.concat([b.subarray(0, at), b.subarray(at + n)]), what: `delete ${n} at ${at}` };
    }
    default: {
      for (let i = 0; i < b.length; i++) if (rnd() < 0.005) b[i] = int(256);
      const n = int(b.length + 1);
      return { data: b.subarray(0, Math.max(n, 24)), what: 'flips 0.5% + truncate' };
    }
  }
}

export interface FuzzOptions {
  seeds: Buffer[];
  /** Stop after this many inputs, or when `deadline` (ms since epoch) passes. */
  maxInputs?: number;
  deadline?: number;
  /** Every nth input also goes through the writer and Packet View reader (0: never). */
  writeEvery?: number;
  seed?: number;
  onProgress?: (s: FuzzStats) => void;
}

export async function fuzz(opts: FuzzOptions): Promise<FuzzStats> {
  const rnd = prng(opts.seed ?? 1);
  const stats: FuzzStats = { inputs: 0, errors: 0, withConversations: 0, written: 0, slowestMs: 0, failures: [] };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-fuzz-'));
  const writeEvery = opts.writeEvery ?? 25;
  try {
    while ((opts.maxInputs === undefined || stats.inputs < opts.maxInputs) && (opts.deadline === undefined || Date.now() < opts.deadline)) {
      const seedIndex = Math.floor(rnd() * opts.seeds.length);
      const { data, what } = mutate(opts.seeds[seedIndex]!, rnd);
      const inputSeed = stats.inputs;
      stats.inputs++;
      const t0 = performance.now();
      try {
        const a = new CaptureAnalyzer();
        for (let i = 0; i < data.length; ) {
          const n = 1 + Math.floor(rnd() * (rnd() < 0.2 ? 16 : 4096));
          a.push(data.subarray(i, i + n));
          i += n;
        }
        const res = a.end();
        if (res.reader.error) stats.errors++;
        if (res.rows.length) stats.withConversations++;
        const s = assess(res, { anonymizeIp: rnd() < 0.5, anonymizeMac: rnd() < 0.5 });
        formatTsharkConversations(res.rows);
        if (writeEvery > 0 && stats.inputs % writeEvery === 0 && s.flags.valid_upload) {
          const input = path.join(tmp, 'in.cap');
          const out = path.join(tmp, 'out.pcap');
          fs.writeFileSync(input, data);
          const w = await writeProcessedCapture(input, out, `${out}.idx`, {
            keepRows: rnd() < 0.5 ? null : new Set(s.conversations.filter(() => rnd() < 0.5).map((c) => c.index)),
            anonymizeIp: true,
            anonymizeMac: true,
            mapping: s.mapping,
            nanosecond: s.summary.nanosecond,
            hasFragments: s.summary.hasFragments,
          });
          stats.written++;
          // The processed capture must read back cleanly, packet for packet.
          const back = new CaptureAnalyzer();
          back.push(fs.readFileSync(out));
          const again = back.end();
          if (again.reader.error || again.reader.packets !== w.packets) throw new Error(`processed capture reads back wrong: ${again.reader.error ?? `${again.reader.packets} != ${w.packets}`}`);
          // And the Packet View of the input.
          const info = storedInfo(res);
          const idx = path.join(tmp, 'in.idx');
          const offsets: number[] = [];
          const ia = new CaptureAnalyzer((rec) => offsets.push(rec.fileOffset));
          ia.push(data);
          ia.end();
          const ib = Buffer.alloc(offsets.length * 8);
          offsets.forEach((o, i) => ib.writeDoubleLE(o, i * 8));
          fs.writeFileSync(idx, ib);
          const from = Math.floor(rnd() * Math.max(1, offsets.length));
          for (const p of await readPackets(input, idx, info, from, 20)) summarizePacket(p, info.firstFrameTime);
        }
      } catch (e) {
        stats.failures.push({ seed: inputSeed, mutation: what, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
      }
      stats.slowestMs = Math.max(stats.slowestMs, performance.now() - t0);
      if (opts.onProgress && stats.inputs % 1000 === 0) opts.onProgress(stats);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return stats;
}
