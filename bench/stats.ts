/** Figures for benchmarks: nearest-rank percentiles and a compact fixed-width table. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / (sorted.length || 1);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? Number.NaN, mean };
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

/** Prints rows of [label, summary] as a table of milliseconds. */
export function printTable(title: string, rows: readonly [string, Summary][]): void {
  const width = Math.max(8, ...rows.map(([label]) => label.length));
  const head = `${'measure'.padEnd(width)}  ${'n'.padStart(4)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'max ms'.padStart(8)}`;
  console.log(title);
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const [label, s] of rows) {
    console.log(`${label.padEnd(width)}  ${String(s.n).padStart(4)}  ${ms(s.p50).padStart(8)}  ${ms(s.p95).padStart(8)}  ${ms(s.max).padStart(8)}`);
  }
}
