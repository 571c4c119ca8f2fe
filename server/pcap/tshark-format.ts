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

/** Wireshark's format_size(n, FORMAT_SIZE_UNIT_BYTES, 0) with SI prefixes (n >= 0). */
export function formatSize(n: number): string {
  if (n >= 1e13) return `${Math.floor(n / 1e12)} TB`;
  if (n >= 1e10) return `${Math.floor(n / 1e9)} GB`;
  if (n >= 1e7) return `${Math.floor(n / 1e6)} MB`;
  if (n >= 1e4) return `${Math.floor(n / 1e3)} kB`;
  return `${n} bytes`;
}

/**
 * printf("%.9f") of the time [s, ns] (relative start): below 2^20 seconds the double s + ns / 1e9
 * is within 1.2e-10 of the exact time, so it prints as s and ns themselves; otherwise by printfFixed.
 */
export function fixed9(t: readonly [number, number]): string {
  const [sec, ns] = t;
  if (sec >= 0 && sec < 1048576 && ns >= 0 && ns < 1e9) return `${sec}.${String(ns).padStart(9, '0')}`;
  return printfFixed(sec + ns / 1e9, 9);
}

const toSec = (t: readonly [number, number]) => t[0] + t[1] / 1e9;

const POS = 16777216;

/** Rows sorted as tshark lists them: total frames descending, ties in order of appearance. */
export function tsharkOrder<T extends { framesAtoB: number; framesBtoA: number; index: number }>(rows: readonly T[]): T[] {
  // One number per row, -total * 2^24 + position, sorted natively (exact while totals stay below
  // 2^29 and rows below 2^24); rows must come in order of appearance for position to break ties.
  const n = rows.length;
  const keys = new Float64Array(n);
  let exact = n < POS;
  for (let i = 0; i < n && exact; i++) {
    const r = rows[i]!;
    const total = r.framesAtoB + r.framesBtoA;
    keys[i] = -total * POS + i;
    exact = total < 2 ** 29 && (i === 0 || r.index > rows[i - 1]!.index);
  }
  if (!exact) return [...rows].sort((a, b) => b.framesAtoB + b.framesBtoA - (a.framesAtoB + a.framesBtoA) || a.index - b.index);
  keys.sort();
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = rows[keys[i]! - Math.floor(keys[i]! / POS) * POS]!;
  return out;
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
      `${`${r.addressA}:${r.portA}`.padEnd(26)} <-> ${`${r.addressB}:${r.portB}`.padEnd(26)}` +
        `  ${String(r.framesBtoA).padStart(6)} ${formatSize(r.bytesBtoA).padEnd(9)}` +
        `  ${String(r.framesAtoB).padStart(6)} ${formatSize(r.bytesAtoB).padEnd(9)}` +
        `  ${String(total).padStart(6)} ${formatSize(r.bytesAtoB + r.bytesBtoA).padEnd(9)}  ` +
        `${fixed9(r.relStart).padStart(14)}   ${printfFixed(toSec(r.relStop) - toSec(r.relStart), 4).padStart(12)}`,
    );
  }
  lines.push(RULE);
  return lines.join('\n');
}

/** The whole output of `tshark -q -z conv,tcp -z conv,udp` (UDP first: tshark draws the last tap first). */
export function formatTsharkConversations(rows: readonly ConversationRow[]): string {
  return `${formatTable('UDP', rows.filter((r) => r.protocol === 'udp'))}\n${formatTable('TCP', rows.filter((r) => r.protocol === 'tcp'))}\n`;
}
