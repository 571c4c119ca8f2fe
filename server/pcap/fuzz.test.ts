import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fuzz } from './testing/fuzz';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/fixtures/pcap');

describe('PCAP fuzzing (bounded)', () => {
  it('thousands of mutated captures end in a result or a clear error, never an exception, each quickly', async () => {
    const seeds = fs
      .readdirSync(fixtureDir)
      .filter((f) => /\.(pcap|pcapng)$/.test(f))
      .map((f) => fs.readFileSync(path.join(fixtureDir, f)));
    const started = Date.now();
    // At most 3000 inputs or 12 s, whichever comes first (the machine may be busy).
    const stats = await fuzz({ seeds, maxInputs: 3000, deadline: started + 12_000, writeEvery: 20, seed: 20261122 });
    expect(stats.failures, JSON.stringify(stats.failures.slice(0, 3), null, 2)).toEqual([]);
    expect(stats.inputs).toBeGreaterThanOrEqual(1000);
    expect(stats.errors).toBeGreaterThan(0);
    expect(stats.withConversations).toBeGreaterThan(0);
    expect(stats.written).toBeGreaterThan(0);
    expect(stats.slowestMs).toBeLessThan(2000);
  }, 30_000);
});
