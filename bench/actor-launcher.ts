/**
 * Starts the engine bench's actor processes on behalf of the bench (bench/engine.bench.ts). The bench
 * starts this small process before it opens its database: spawning from the director's own process
 * once PGlite had reserved its WebAssembly memory cost ~0.7 s of the director's event loop per actor
 * (fork copies the mappings), 33 s for 50 actors, long enough for the first actors' registrations to
 * time out. Reads one JSON line { director, token, addresses } on stdin; its actors end with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { ACTOR_NODE_FLAGS } from '../src/api/contracts/engine';

const root = path.resolve(import.meta.dirname, '..');
const actors: ChildProcess[] = [];
const stop = () => {
  for (const a of actors) a.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const lines = readline.createInterface({ input: process.stdin });
lines.once('line', (line) => {
  const { director, token, addresses, gapMs } = JSON.parse(line) as { director: string; token: string; addresses: string[]; gapMs: number };
  void (async () => {
    for (const [i, address] of addresses.entries()) {
      if (i) await new Promise((r) => setTimeout(r, gapMs));
      actors.push(
        // BENCH_ACTOR_NODE_ARGS: Node arguments for each actor (e.g. --cpu-prof --cpu-prof-dir=DIR to profile them).
        spawn(process.execPath, [...ACTOR_NODE_FLAGS, ...(process.env.BENCH_ACTOR_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', path.join(root, 'actor', 'main.ts'), '--director', director, '--name', `bench-${i + 1}`, '--address', address, '--exit-with-stdin'], {
          cwd: root,
          stdio: ['pipe', 'ignore', 'inherit'],
          env: { ...process.env, VIGIL_BULK_TOKEN: token },
        }),
      );
    }
  })();
});
// The bench went away: so do the actors.
lines.once('close', stop);
