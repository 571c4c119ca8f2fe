/** Action VIDs: vendor content (A1xx-...) and the next free VID of the operator's own Actions (A000-n). */
import type { Db } from '../db/index';

/** Vendor content: VID A1xx-... (see src/api/fakes/catalog.ts). */
export const isVendorVid = (vid: string) => /^A1\d\d-/.test(vid);

/** The next VID from action_vid_seq that no Action holds yet. */
export async function nextVid(db: Db): Promise<string> {
  for (;;) {
    const [row] = await db.query<{ n: number }>(`select nextval('action_vid_seq')::int as n`);
    const vid = `A000-${row!.n}`;
    const taken = await db.query('select 1 from actions where vid = $1', [vid]);
    if (!taken.length) return vid;
  }
}
