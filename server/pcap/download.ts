/**
 * The capture a PCAP Action replays, for GET /manage_sims/actions/download/{sim_id}: the processed
 * capture (this director's copy, else the database's when another director wrote it), streamed whatever
 * its size; else (captures stored before) the copy in the file library.
 */
import type { Readable } from 'node:stream';
import type { Db } from '../db/index';
import { PcapStore } from './store';
import { FileStore } from '../file-library/store';
import type { SharedFiles } from '../storage/shared-files';

export interface ActionCapture {
  body: Readable | Buffer;
  size: number;
}

export async function openActionCapture(db: Db, files: SharedFiles, actionId: number, fileName: string): Promise<ActionCapture | null> {
  const [upload] = await db.query<{ id: number }>('select id from pcap_uploads where action_id = $1 order by id desc limit 1', [actionId]);
  if (upload) {
    const file = await new PcapStore(files).localProcessed(upload.id);
    if (file) {
      const opened = await files.open(`pcap/processed/${upload.id}.pcap`);
      if (opened) return opened;
    }
  }
  if (!fileName) return null;
  const [copy] = await db.query<{ content: Uint8Array | null; content_file: string | null }>(
    'select content, content_file from file_library where orig_file_name = $1 and (content is not null or content_file is not null) order by id desc limit 1',
    [fileName],
  );
  if (copy?.content_file) return new FileStore(files).open(copy.content_file);
  return copy?.content ? { body: Buffer.from(copy.content), size: copy.content.byteLength } : null;
}
