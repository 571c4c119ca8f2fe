import { afterAll, afterEach, beforeAll } from 'vitest';
import { startDirector, type Director } from './director';

/**
 * A director of the test file's own (SEED=demo, no local actors unless `env` says LOCAL_ACTORS: '1'),
 * for tests that need actors or another environment, or counts no other file may change (a start costs
 * about 5 s of CPU: a file that only writes uses the shared one, see docs/contributing.md): started
 * before the file's tests with `env` added to its environment, stopped after them, its output printed
 * when a test fails. Answers a getter, as the director exists only once beforeAll has run.
 */
export function useOwnDirector(env: Record<string, string> = {}): () => Director {
  let director: Director | undefined;
  beforeAll(async () => {
    director = await startDirector({ LOCAL_ACTORS: '0', ...env });
    // The director's own start limit (VIGIL_E2E_START_TIMEOUT_MS on a loaded machine) plus room to spare.
  }, (Number(process.env.VIGIL_E2E_START_TIMEOUT_MS) || 90_000) + 30_000);
  afterAll(async () => {
    await director?.stop();
  });
  afterEach((ctx) => {
    // The director's own account of a failure (an answer of 500 is logged there, not in the page).
    if (ctx.task.result?.state === 'fail') console.error(`director output (tail):\n${director?.output().slice(-4000)}`);
  });
  return () => {
    if (!director) throw new Error('The director has not started yet.');
    return director;
  };
}
