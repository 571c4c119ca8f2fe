import { inject } from 'vitest';

/**
 * The shared director of this worker: global-setup.ts starts one per worker and files run two at a
 * time, so a file never shares its director with a file running at the same time (VITEST_POOL_ID is
 * the worker's number, 1..maxWorkers).
 */
export function sharedDirectorUrl(): string {
  const urls = inject('baseUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const url = urls[(worker - 1) % urls.length];
  if (!url) throw new Error('No shared director: e2e/global-setup.ts did not start one.');
  return url;
}
