/**
 * How a report's time range is split between the rollups (migration 017_reports_rollups.sql) and the raw
 * job actions: every whole month, day, hour or 5 minutes inside a bucket is read from the rollup rows of
 * that grain; what is left at the edges (less than the finest grain the dimension keeps) is aggregated
 * from the job actions themselves. Pure functions over epoch milliseconds (UTC).
 */

/** Grains as the rollups number them. */
export const GRAIN = { fiveMinutes: 0, hour: 1, day: 2, month: 3 } as const;
export type Grain = (typeof GRAIN)[keyof typeof GRAIN];

/** Grains kept for all job actions (dim 0) and for keyed dimensions (per Action, actor, simulation, monitor). */
export const TOTAL_GRAINS: readonly Grain[] = [GRAIN.month, GRAIN.day, GRAIN.hour, GRAIN.fiveMinutes];
export const KEYED_GRAINS: readonly Grain[] = [GRAIN.month, GRAIN.day];
/** Grains the class rollups keep for all job actions of a class (the keyed dims as KEYED_GRAINS). */
export const CLASS_TOTAL_GRAINS: readonly Grain[] = [GRAIN.month, GRAIN.day, GRAIN.hour];

const FIXED_MS: Record<Exclude<Grain, 3>, number> = { 0: 300_000, 1: 3_600_000, 2: 86_400_000 };

/** The first slice start of `grain` at or after t. */
export function ceilTo(grain: Grain, t: number): number {
  if (grain === GRAIN.month) {
    const d = new Date(t);
    const floor = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    return floor === t ? t : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  const g = FIXED_MS[grain];
  return Math.ceil(t / g) * g;
}

/** The last slice start of `grain` at or before t. */
export function floorTo(grain: Grain, t: number): number {
  if (grain === GRAIN.month) {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const g = FIXED_MS[grain];
  return Math.floor(t / g) * g;
}

/** Rollup rows of `grain` with bucket in [a, b) count towards result bucket i. */
export interface RollupRange {
  grain: Grain;
  a: number;
  b: number;
  i: number;
}

/** Job actions with job_time in [a, b) (or [a, b] when inclusive) count towards result bucket i. */
export interface RawPiece {
  a: number;
  b: number;
  inclusive: boolean;
  i: number;
}

export interface SlicePlan {
  rollup: RollupRange[];
  raw: RawPiece[];
}

/**
 * The parts of a range a report keeps (weekday-windows.ts): windows [a, b) in time order, disjoint, and
 * whether the range's final instant is kept.
 */
export interface Within {
  windows: readonly (readonly [number, number])[];
  endKept: boolean;
}

function split(a: number, b: number, grains: readonly Grain[], i: number, plan: SlicePlan): void {
  if (a >= b) return;
  const [g, ...finer] = grains;
  if (g === undefined) {
    const last = plan.raw[plan.raw.length - 1];
    if (last && last.i === i && last.b === a && !last.inclusive) last.b = b;
    else plan.raw.push({ a, b, inclusive: false, i });
    return;
  }
  const A = ceilTo(g, a);
  const B = floorTo(g, b);
  if (A >= B) return split(a, b, finer, i, plan);
  split(a, A, finer, i, plan);
  plan.rollup.push({ grain: g, a: A, b: B, i });
  split(B, b, finer, i, plan);
}

/**
 * Splits consecutive half-open buckets [edges[i], edges[i + 1]) and the final instant edges[n] (the jobs
 * filter's end is inclusive; it counts in bucket `endBucket`, the last one unless a time series ends
 * with empty buckets) into rollup ranges and raw pieces; `within`, only their parts inside its windows.
 */
export function planSlices(edges: readonly number[], grains: readonly Grain[], endBucket = edges.length - 2, within?: Within): SlicePlan {
  const plan: SlicePlan = { rollup: [], raw: [] };
  const n = edges.length - 1;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const a = edges[i]!;
    const b = Math.max(a, edges[i + 1]!);
    if (!within) {
      split(a, b, grains, i, plan);
      continue;
    }
    // The edges never go back: the windows that end before this bucket are behind every later one too.
    const ws = within.windows;
    while (w < ws.length && ws[w]![1] <= a) w++;
    for (let j = w; j < ws.length && ws[j]![0] < b; j++) split(Math.max(a, ws[j]![0]), Math.min(b, ws[j]![1]), grains, i, plan);
  }
  if (within && !within.endKept) return plan;
  const end = edges[n]!;
  const last = plan.raw[plan.raw.length - 1];
  if (last && last.b === end && last.i === endBucket) last.inclusive = true;
  else if (n > 0) plan.raw.push({ a: end, b: end, inclusive: true, i: endBucket });
  return plan;
}
