/**
 * Renders conversations exactly as `tshark -q -z conv,tcp -z conv,udp` (Wireshark 4.0) prints them,
 * so golden files written by tshark compare byte for byte, and the benchmark can diff the two.
 */
import type { ConversationRow } from './conversations';

const RULE = '================================================================================';

/**
 * C printf("%.Nf") of a double: the exact binary value, rounded half to even. Number#toFixed also
 * rounds the exact value, but breaks ties upwards; a tie needs x * 2^(N+1) to be a whole number, so
 * only such values (0, halves, ...) take the exact BigInt path.
 */
export function printfFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return String(x);
  const neg = x < 0 || Object.is(x, -0);
  const ax = Math.abs(x);
  if (ax < 1e21 && !Number.isInteger(ax * 2 ** (digits + 1))) {
    const s = ax.toFixed(digits);
    return neg ? `-${s}` : s;
  }
  return printfFixedExact(x, digits);
}

/** printfFixed by exact integer arithmetic on the double's bits (slow; the reference of the fast path). */
export function printfFixedExact(x: number, digits: number): string {
  if (!Number.isFinite(x)) return String(x);
  const neg = x < 0 || Object.is(x, -0);
  const ax = Math.abs(x);
  // ax = mant * 2^exp exactly.
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, ax);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const e = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (e === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = e - 1075;
  }
  const scale = 10n ** BigInt(digits);
  let q: bigint;
  if (exp >= 0) q = (mant << BigInt(exp)) * scale;
  else {
    const num = mant * scale;
    const den = 1n << BigInt(-exp);
    q = num / den;
    const r2 = (num % den) * 2n;
    if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  }
  let s = q.toString();
  if (digits > 0) {
    s = s.padStart(digits + 1, '0');
    s = `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  }
  return neg ? `-${s}` : s;
}

/** Wireshark's format_size(n, FORMAT_SIZE_UNIT_BYTES, 0) with SI prefixes. */
export function formatSize(n: number): string {
  const p = 1000;
  if (Math.floor(n / p ** 4) >= 10) return `${Math.floor(n / p ** 4)} TB`;
  if (Math.floor(n / p ** 3) >= 10) return `${Math.floor(n / p ** 3)} GB`;
  if (Math.floor(n / p ** 2) >= 10) return `${Math.floor(n / p ** 2)} MB`;
  if (Math.floor(n / p) >= 10) return `${Math.floor(n / p)} kB`;
  return `${n} bytes`;
}

const padEnd = (s: string, n: number) => s.padEnd(n);
const padStart = (s: string, n: number) => s.padStart(n);
const toSec = (t: [number, number]) => t[0] + t[1] / 1e9;

function endpoint(addr: string, port: number): string {
  return `${addr}:${port}`;
}

/** Rows sorted as tshark lists them: total frames descending, ties in order of appearance. */
export function tsharkOrder<T extends { framesAtoB: number; framesBtoA: number; index: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.framesAtoB + b.framesBtoA - (a.framesAtoB + a.framesBtoA) || a.index - b.index);
}

export function formatTable(title: 'TCP' | 'UDP', rows: readonly ConversationRow[]): string {
  const lines = [
    RULE,
    `${title} Conversations`,
    'Filter:<No Filter>',
    '                                                           |       <-      | |       ->      | |     Total     |    Relative    |   Duration   |',
    '                                                           | Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |',
  ];
  for (const r of tsharkOrder(rows)) {
    const total = r.framesAtoB + r.framesBtoA;
    lines.push(
      `${padEnd(endpoint(r.addressA, r.portA), 26)} <-> ${padEnd(endpoint(r.addressB, r.portB), 26)}` +
        `  ${padStart(String(r.framesBtoA), 6)} ${padEnd(formatSize(r.bytesBtoA), 9)}` +
        `  ${padStart(String(r.framesAtoB), 6)} ${padEnd(formatSize(r.bytesAtoB), 9)}` +
        `  ${padStart(String(total), 6)} ${padEnd(formatSize(r.bytesAtoB + r.bytesBtoA), 9)}  ` +
        `${padStart(printfFixed(toSec(r.relStart), 9), 14)}   ${padStart(printfFixed(toSec(r.relStop) - toSec(r.relStart), 4), 12)}`,
    );
  }
  lines.push(RULE);
  return lines.join('\n');
}

/** The whole output of `tshark -q -z conv,tcp -z conv,udp` (UDP first: tshark draws the last tap first). */
export function formatTsharkConversations(rows: readonly ConversationRow[]): string {
  return `${formatTable('UDP', rows.filter((r) => r.protocol === 'udp'))}\n${formatTable('TCP', rows.filter((r) => r.protocol === 'tcp'))}\n`;
}
