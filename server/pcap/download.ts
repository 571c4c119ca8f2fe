/**
 * The capture a PCAP Action replays, for GET /manage_sims/actions/download/{sim_id}: the processed
 * file on disk, streamed whatever its size; else (captures stored before, or seeded without a file)
 * the copy in the file library.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Db } from '../db/index';
import { PcapStore } from './store';
import { FileStore } from '../file-library/store';

export interface ActionCapture {
  body: Readable | Buffer;
  size: number;
}

export async function openActionCapture(db: Db, dataDir: string, actionId: number, fileName: string): Promise<ActionCapture | null> {
  const [upload] = await db.query<{ id: number }>('select id from pcap_uploads where action_id = $1 order by id desc limit 1', [actionId]);
  if (upload) {
    const file = new PcapStore(dataDir).processedFile(upload.id);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat?.isFile()) return { body: fs.createReadStream(file, { highWaterMark: 1 << 20 }), size: stat.size };
  }
  if (!fileName) return null;
  const [copy] = await db.query<{ content: Uint8Array | null; content_file: string | null }>(
    'select content, content_file from file_library where orig_file_name = $1 and (content is not null or content_file is not null) order by id desc limit 1',
    [fileName],
  );
  if (copy?.content_file) {
    const stored = new FileStore(dataDir).pathOf(copy.content_file);
    const st = await fsp.stat(stored).catch(() => null);
    return st ? { body: fs.createReadStream(stored, { highWaterMark: 1 << 20 }), size: st.size } : null;
  }
  return copy?.content ? { body: Buffer.from(copy.content), size: copy.content.byteLength } : null;
}
