/**
 * What a director killed mid-upload (kill -9, power loss) leaves behind, cleaned at its next start:
 * upload rows still 'Uploading' or 'Processing' end as invalid with the reason in their notifications
 * (instead of "Uploading, 0%" forever), and their capture files, and files of no upload at all, are
 * removed from DATA_DIR/pcap.
 *
 * On PGlite one director owns the database, so every unfinished upload at start is interrupted. On
 * PostgreSQL another director may be receiving an upload right now: only uploads without progress for
 * STALE_MS are ended (an upload in flight records progress far more often).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/index';
import { PCAP_STATUS } from '../../src/api/contracts/pcap';
import { PcapStore } from './store';
import type { SharedFiles } from '../storage/shared-files';

const STALE_MS = 120_000;
export const INTERRUPTED_MESSAGE = 'The director stopped while this capture was being received or processed (it was restarted). Upload the capture again.';

export async function cleanInterruptedUploads(db: Db, files: SharedFiles): Promise<{ uploads: number; files: number }> {
  const stale = db.kind === 'pglite' ? 0 : STALE_MS;
  const ended = await db.query<{ id: number }>(
    `update pcap_uploads set status = $1, percent_complete = 100, valid_upload = false, notifications = $2::jsonb, updated_at = now()
      where status in ($3, $4) and updated_at <= now() - ($5::int * interval '1 millisecond') returning id`,
    [PCAP_STATUS.invalid, JSON.stringify([{ level: 'error', message: INTERRUPTED_MESSAGE }]), PCAP_STATUS.uploading, PCAP_STATUS.processing, stale],
  );
  await db.query(`delete from pcap_conversations where upload_id = any($1::int[])`, [ended.map((r) => r.id)]);
  const store = new PcapStore(files);
  let removed = 0;
  for (const r of ended) {
    removed += await removeExisting(store, r.id);
    await store.remove(r.id);
  }
  // Files whose upload row is gone or ended unfinished: {id}.cap(.idx) and {id}.pcap(.idx).
  const rows = new Map((await db.query<{ id: number; status: string }>('select id, status from pcap_uploads')).map((r) => [r.id, r.status]));
  for (const dir of ['uploads', 'processed']) {
    let names: string[] = [];
    try {
      names = await fsp.readdir(path.join(store.root, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      const id = Number(/^(\d+)\./.exec(name)?.[1] ?? Number.NaN);
      if (Number.isInteger(id) && rows.has(id)) continue;
      await fsp.rm(path.join(store.root, dir, name), { force: true });
      removed++;
    }
  }
  // The database's copies (shared with the other directors) of uploads that are gone.
  for (const t of ['stored_files', 'stored_file_chunks']) {
    await db.query(`delete from ${t} where name like 'pcap/%' and not exists (select 1 from pcap_uploads u where u.id = substring(name from '^pcap/[a-z]+/([0-9]+)[.]')::int)`);
  }
  return { uploads: ended.length, files: removed };
}

async function removeExisting(store: PcapStore, id: number): Promise<number> {
  let n = 0;
  for (const f of [store.uploadFile(id), `${store.uploadFile(id)}.idx`, store.processedFile(id), `${store.processedFile(id)}.idx`]) {
    try {
      await fsp.rm(f);
      n++;
    } catch {
      // not there
    }
  }
  return n;
}
