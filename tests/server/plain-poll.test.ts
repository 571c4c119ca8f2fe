/**
 * The poll's fast check (server/actors/plain-poll.ts) against the schema it stands in for: on generated
 * bodies, well-formed and not, whatever it accepts yup accepts and gives back the same; and the bodies
 * actors send take it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pollSchema } from '../../src/api/contracts/engine';
import { validate } from '../../server/http-errors';
import { plainPoll } from '../../server/actors/plain-poll';

// Mostly well-formed values (so that whole bodies often are), now and then one yup would cast, trim or refuse.
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 40 }, { arbitrary: bad, weight: 1 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const number = mostly(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom(0, -1, 1.5, 2 ** 53, Number.NaN, '7', '12', null, true));
const text = (max: number) => mostly(fc.string({ minLength: 1, maxLength: max }), fc.constantFrom(' padded ', '', 'x'.repeat(max + 1), 5, null));
const object = mostly(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer()), { noNullPrototype: true }), fc.constantFrom([], null, 'text', 3));
const extra = mostly(fc.constant({}), fc.constant({ unknown: 1 }));
const list = <T>(arb: fc.Arbitrary<T>) => maybe(mostly(fc.array(arb, { maxLength: 2 }), fc.oneof(fc.array(arb, { minLength: 17, maxLength: 17 }), fc.constant('[]'))));

const ready = fc.record({ work_id: number, port_map: maybe(object), port_failures: maybe(object), login: maybe(mostly(fc.constantFrom('vigil_x1', 'a.b-c'), fc.oneof(text(32), fc.constantFrom('9bad', 'a b')))) }, { requiredKeys: ['work_id'], noNullPrototype: true });
const evidence = fc.record({ work_id: number, evidence: mostly(object, fc.constant(undefined)) }, { requiredKeys: ['work_id', 'evidence'], noNullPrototype: true });
const result = fc.record(
  { work_id: number, outcome: mostly(fc.constantFrom('ran', 'errored', 'incompatible', 'aborted'), fc.constantFrom('done', '', 3)), blocked: maybe(mostly(fc.constantFrom(true, false, null), fc.constantFrom('true', 0))), message: maybe(text(2000)), evidence: maybe(object) },
  { requiredKeys: ['work_id', 'outcome'], noNullPrototype: true },
);
const withExtra = <T extends object>(arb: fc.Arbitrary<T>) => fc.tuple(arb, extra).map(([v, e]) => ({ ...v, ...e }));
const poll = withExtra(
  fc.record(
    {
      session: text(64),
      holding: maybe(mostly(fc.array(number, { maxLength: 3 }), fc.oneof(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 101, maxLength: 101 }), fc.constant('1')))),
      wait_ms: maybe(mostly(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(20_001, -1, 1.5, '100', null))),
      ready: list(withExtra(ready)),
      evidence: list(withExtra(evidence)),
      results: list(withExtra(result)),
    },
    { requiredKeys: ['session'], noNullPrototype: true },
  ),
);

function bySchema(body: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: validate(pollSchema, body) };
  } catch {
    return { ok: false };
  }
}

describe('the poll fast check', () => {
  it('accepts only what the schema accepts, and gives back what the schema gives back', () => {
    let taken = 0;
    fc.assert(
      fc.property(poll, (body) => {
        const fast = plainPoll(body);
        if (fast === undefined) return;
        taken++;
        const slow = bySchema(body);
        expect(slow.ok).toBe(true);
        expect(fast).toEqual((slow as { value: unknown }).value);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the fast path often enough for the comparison to mean something.
    expect(taken).toBeGreaterThan(300);
  });

  it('takes the bodies actors send: a wait, a readiness, evidence and results', () => {
    const bodies = [
      { session: 'a1b2c3d4e5f6a1b2c3d4e5f6', holding: [], wait_ms: 5000 },
      { session: 'a1b2c3d4e5f6a1b2c3d4e5f6', holding: [12], wait_ms: 5000, ready: [{ work_id: 12, port_map: { 445: 445 }, port_failures: {}, login: 'vigil_ab12' }] },
      { session: 'a1b2c3d4e5f6a1b2c3d4e5f6', holding: [], wait_ms: 5000, evidence: [{ work_id: 12, evidence: { connections: [{ port: 445, bytes: 5 }] } }] },
      { session: 'a1b2c3d4e5f6a1b2c3d4e5f6', holding: [], wait_ms: 5000, results: [{ work_id: 13, outcome: 'ran', blocked: false, message: null, evidence: { ports: [] } }] },
    ];
    for (const body of bodies) {
      const fast = plainPoll(body);
      expect(fast).toBeDefined();
      expect(fast).toEqual(bySchema(body).ok && validate(pollSchema, body));
    }
    // Anything the schema would cast or trim goes to it.
    expect(plainPoll({ session: ' padded ', wait_ms: 5000 })).toBeUndefined();
    expect(plainPoll({ session: 'a', wait_ms: '5000' })).toBeUndefined();
    expect(plainPoll({ session: 'a', holding: ['12'] })).toBeUndefined();
  });
});
