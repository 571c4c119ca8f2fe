import { inject } from 'vitest';

/**
 * The loopback addresses of this worker's actors. Actors listen on fixed ports of their address
 * (53, 25, 80, the demo content's ports), so two test files whose actors share an address would take
 * each other's ports. Linux answers on the whole of 127.0.0.0/8: every Vitest worker has its own /24,
 * 127.RUN.WORKER.0/24, where WORKER is VITEST_POOL_ID (1..maxWorkers) and RUN is one number per Vitest
 * run (global-setup.ts: VIGIL_TEST_LOOPBACK_RUN, or derived from the run's process id), never 0, so a
 * director's own local actors (127.0.0.2 and 127.0.0.3, e.g. in the browser tests) and another run
 * beside this one (the PostgreSQL pass of `npm test`) are never in the way.
 */
export const LOOPBACK_NET = `127.${inject('loopbackRun')}.${Number(process.env.VITEST_POOL_ID ?? '1')}`;

/** Host `n` of this worker's loopback network (2 and 3 are the engine world's actors). */
export const loopback = (n: number): string => `${LOOPBACK_NET}.${n}`;

/** The address of the engine world's source actor (startEngineWorld in engine-helpers.ts). */
export const SRC_ADDRESS = loopback(2);
/** The address of the engine world's destination actor. */
export const DST_ADDRESS = loopback(3);
