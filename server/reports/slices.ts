/**
 * How a report's time range is split between the rollups (migration 017_reports_rollups.sql) and the raw
 * job actions: every whole month, day, hour or 5 minutes inside a bucket is read from the rollup rows of
 * that grain; what is left at the edges (less than the finest grain the dimension keeps) is aggregated
 * from the job actions themselves, or, when an edge covers most of its day or month, the slice is read
 * from the rollups and the rest of it subtracted (read raw and counted negative). Pure functions over
 * epoch milliseconds (UTC).
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
  /**
   * Job actions subtracted from bucket i: the rest of a slice of the finest grain that an edge covers
   * most of, read from the rollups whole (see edge()). Disjoint within a bucket, in time order.
   */
  neg: RawPiece[];
}

/**
 * The parts of a range a report keeps (weekday-windows.ts): windows [a, b) in time order, disjoint, and
 * whether the range's final instant is kept.
 */
export interface Within {
  windows: readonly (readonly [number, number])[];
  endKept: boolean;
}

function pushRaw(into: RawPiece[], a: number, b: number, i: number): void {
  if (a >= b) return;
  const last = into[into.length - 1];
  if (last && last.i === i && last.b === a && !last.inclusive) last.b = b;
  else into.push({ a, b, inclusive: false, i });
}

function pushRollup(plan: SlicePlan, grain: Grain, a: number, b: number, i: number): void {
  const last = plan.rollup[plan.rollup.length - 1];
  if (last && last.grain === grain && last.i === i && last.b === a) last.b = b;
  else plan.rollup.push({ grain, a, b, i });
}

/**
 * [a, b), inside one slice of the finest grain g the dimension keeps: raw, or, for a day or a month that
 * it covers two thirds of or more, the slice's rollup rows minus the raw rest of the slice (a local day
 * in Paris is 23 hours of one UTC day: one hour is read instead of 23). Measured (bench:reports, 1M job
 * actions): subtracting costs a statement part of its own, more than it saves on the few minutes a
 * 5-minute or hour edge holds, or on a day's edge of a few hours more than its rest.
 */
function edge(a: number, b: number, g: Grain, i: number, plan: SlicePlan): void {
  if (a >= b) return;
  const s0 = floorTo(g, a);
  const s1 = ceilTo(g, s0 + 1);
  if (g < GRAIN.day || b > s1 || 3 * (s1 - s0 - (b - a)) > s1 - s0) return pushRaw(plan.raw, a, b, i);
  pushRollup(plan, g, s0, s1, i);
  pushRaw(plan.neg, s0, a, i);
  pushRaw(plan.neg, b, s1, i);
}

function split(a: number, b: number, grains: readonly Grain[], i: number, plan: SlicePlan): void {
  if (a >= b) return;
  const [g, ...finer] = grains;
  if (g === undefined) return pushRaw(plan.raw, a, b, i);
  const A = ceilTo(g, a);
  const B = floorTo(g, b);
  // At the finest grain what is left is an edge: less than a slice on either side of a whole run, or
  // (no whole slice inside) a piece of one slice or of two across a boundary.
  const rest = (x: number, y: number) => (finer.length ? split(x, y, finer, i, plan) : edge(x, y, g, i, plan));
  if (A >= B) {
    if (finer.length) return split(a, b, finer, i, plan);
    // Either side of the boundary A (the second empty when [a, b) ends before it).
    edge(a, Math.min(A, b), g, i, plan);
    return edge(A, b, g, i, plan);
  }
  rest(a, A);
  pushRollup(plan, g, A, B, i);
  rest(B, b);
}

/**
 * Splits consecutive half-open buckets [edges[i], edges[i + 1]) and the final instant edges[n] (the jobs
 * filter's end is inclusive; it counts in bucket `endBucket`, the last one unless a time series ends
 * with empty buckets) into rollup ranges and raw pieces; `within`, only their parts inside its windows.
 */
export function planSlices(edges: readonly number[], grains: readonly Grain[], endBucket = edges.length - 2, within?: Within): SlicePlan {
  const plan: SlicePlan = { rollup: [], raw: [], neg: [] };
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
