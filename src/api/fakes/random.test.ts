import { describe, expect, it } from 'vitest';
import { Rng, slug } from './random';

describe('Rng', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(xs);
    expect(new Set(xs).size).toBe(20);
  });

  it('keeps integers, picks and samples within bounds', () => {
    const r = new Rng(3);
    for (let i = 0; i < 500; i++) {
      const n = r.int(-2, 5);
      expect(n).toBeGreaterThanOrEqual(-2);
      expect(n).toBeLessThanOrEqual(5);
    }
    expect(['a', 'b']).toContain(r.pick(['a', 'b']));
    const s = r.sample([1, 2, 3, 4, 5], 3);
    expect(new Set(s).size).toBe(3);
    expect(r.shuffle([1, 2, 3, 4]).sort()).toEqual([1, 2, 3, 4]);
    expect(r.hex(64)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('forks independent streams that do not depend on draws made later', () => {
    const a = new Rng(9);
    const fa = a.fork('x').next();
    const b = new Rng(9);
    expect(b.fork('x').next()).toBe(fa);
    expect(b.fork('y').next()).not.toBe(fa);
  });

  it('picks by weight and never picks a zero weight', () => {
    const r = new Rng(5);
    for (let i = 0; i < 200; i++) expect(r.weighted([['a', 1], ['b', 0]])).toBe('a');
  });
});

describe('slug', () => {
  it('turns names into snake_case parameter names', () => {
    expect(slug('Backdoor/RAT')).toBe('backdoor_rat');
    expect(slug('  Windows Server 2019 ')).toBe('windows_server_2019');
  });
});
