import type { Page } from 'playwright-core';
import type { RunActor } from '../src/api/contracts/engine';
import { useOwnDirector } from './own-director';
import { eventually } from './workbench';

/** The two local actors of the demo install, on 127.0.0.2 and 127.0.0.3. */
export const LOCAL_ACTOR_NAMES = ['local-actor-1', 'local-actor-2'] as const;

/** A sequence of the demo seed the local actors can run. */
export const SEQUENCE_ID = 7;
export const SEQUENCE_NAME = 'Internal Segmentation - User to Server VLAN';

/**
 * A director of the test file's own with the two local actors, so a run really happens; a short
 * detection window, so a job completes one second after its last action.
 */
export const useLocalActorsDirector = () => useOwnDirector({ LOCAL_ACTORS: '1', DETECTION_WINDOW_MS: '1000' });

/**
 * Waits until both local actors have registered and are online (a few seconds after the director
 * starts) and answers the actors the director lists, through the signed-in page's session.
 */
export async function localActorsOnline(page: Page): Promise<RunActor[]> {
  let actors: RunActor[] = [];
  await eventually(
    async () => {
      const res = await page.request.get('/run/actors.json', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
      if (res.status() !== 200) return false;
      actors = ((await res.json()) as { data: RunActor[] }).data;
      return LOCAL_ACTOR_NAMES.every((n) => actors.some((a) => a.name === n && a.status === 'online'));
    },
    true,
    'both local actors are online',
    30_000,
  );
  return actors;
}
