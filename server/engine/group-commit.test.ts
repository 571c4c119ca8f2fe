import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes the first call at once and the calls that arrive meanwhile together, answering each after its write', async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const gc = new GroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
    });
    const answered: number[] = [];
    const first = gc.add(1).then(() => answered.push(1));
    const rest = [2, 3, 4].map((n) => gc.add(n).then(() => answered.push(n)));
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toEqual([[1]]);
    expect(answered).toEqual([]);
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
    expect(answered).toEqual([1, 2, 3, 4]);
  });

  it('writes a failed batch again one call at a time, so only the bad call fails', async () => {
    const writes: string[][] = [];
    let hold: Promise<void> | null = new Promise((r) => setTimeout(r, 20));
    const gc = new GroupCommit<string>(async (items) => {
      writes.push(items);
      if (hold) await hold.finally(() => (hold = null));
      if (items.includes('bad')) throw new Error('bad call');
    });
    const first = gc.add('first');
    const results = await Promise.allSettled([first, gc.add('ok'), gc.add('bad'), gc.add('fine')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(writes).toEqual([['first'], ['ok', 'bad', 'fine'], ['ok'], ['bad'], ['fine']]);
  });

  it('with two lanes, calls arriving during a slow write go at once in a second batch; a third waits for a lane', async () => {
    const writes: number[][] = [];
    const releases: (() => void)[] = [];
    const gc = new GroupCommit<number>(
      async (items) => {
        writes.push(items);
        await new Promise<void>((r) => releases.push(r));
      },
      64,
      2,
    );
    const answered: number[] = [];
    const calls = [gc.add(1).then(() => answered.push(1))];
    await Promise.resolve();
    calls.push(gc.add(2).then(() => answered.push(2)));
    await Promise.resolve();
    calls.push(gc.add(3).then(() => answered.push(3)), gc.add(4).then(() => answered.push(4)));
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toEqual([[1], [2]]);
    // The second lane's write ends first: its call is answered without waiting for the first's.
    releases[1]?.();
    await new Promise((r) => setTimeout(r, 10));
    expect(answered).toEqual([2]);
    expect(writes).toEqual([[1], [2], [3, 4]]);
    releases[0]?.();
    releases[2]?.();
    await Promise.all(calls);
    expect(answered.sort()).toEqual([1, 2, 3, 4]);
  });
});
