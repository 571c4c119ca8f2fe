/**
 * Stores the capture of every seeded PCAP and Captive IOC PCAP Action exactly as an uploaded and
 * processed capture is stored (routes/upload.ts): an upload row with its conversations and flags, the
 * upload and the processed capture under DATA_DIR/pcap, the processed copy in the file library, and
 * the Action's details naming the upload, so the engine can replay it between actors.
 */
import type { Db } from '../db/index';
import type { SharedFiles } from '../storage/shared-files';
import { PcapStore, UploadIngest } from '../pcap/store';
import { keepProcessed, storeAssessment, writeProcessed, type ProcessableUpload } from '../pcap/keep';
import { PCAP_STATUS } from '../../src/api/contracts/pcap';
import { demoCapture } from './demo-traffic';

interface PcapActionRow {
  id: number;
  vid: string;
  created_by: number | null;
  details: { file?: string; attacker_ip?: string; destination_ip?: string; anonymized_ip?: boolean; anonymized_mac?: boolean };
}

/** Stores the captures of the seeded replay Actions that have none yet; how many it stored. */
export async function seedDemoCaptures(db: Db, files: SharedFiles): Promise<number> {
  const store = new PcapStore(files);
  await store.ensureDirs();
  const actions = await db.query<PcapActionRow>(
    `select id, vid, created_by, details from actions
      where action_type in ('pcap', 'captive_ioc_pcap') and coalesce(details->>'upload', '') = '' order by id`,
  );
  let stored = 0;
  for (const a of actions) {
    const d = a.details;
    const bytes = d.file && d.attacker_ip && d.destination_ip ? demoCapture(d.file, d.attacker_ip, d.destination_ip) : null;
    if (!bytes || !d.file) continue;
    await storeCapture(db, store, a, d.file, bytes);
    stored++;
  }
  return stored;
}

async function storeCapture(db: Db, store: PcapStore, a: PcapActionRow, file: string, bytes: Buffer): Promise<void> {
  const anonymizeIp = a.details.anonymized_ip === true;
  const anonymizeMac = a.details.anonymized_mac === true;
  const [row] = await db.query<{ id: number }>(
    `insert into pcap_uploads (user_id, orig_filename, status, size, bytes_read, percent_complete, anonymized_ip, anonymized_mac)
     values ($1, $2, $3, $4, $4, 99, $5, $6) returning id`,
    [a.created_by, file, PCAP_STATUS.processing, bytes.length, anonymizeIp, anonymizeMac],
  );
  const id = row!.id;
  const ingest = new UploadIngest(store.uploadFile(id));
  await ingest.push(bytes);
  const { analysis, stored } = ingest.finish();
  await storeAssessment(db, id, analysis, { anonymizeIp, anonymizeMac }, stored.then(() => store.publishUpload(id)));
  const [upload] = await db.query<ProcessableUpload>('select id, anonymized_ip, anonymized_mac, mapping, summary from pcap_uploads where id = $1', [id]);
  const rows = await db.query<{ conv_index: number }>('select conv_index from pcap_conversations where upload_id = $1', [id]);
  const processed = await writeProcessed(store, upload!, new Set(rows.map((r) => r.conv_index)));
  await keepProcessed(db, store, id, a.id, processed, { name: file, notes: `Processed packet capture of PCAP Action ${a.vid} (demo capture, upload ${id}).`, userId: a.created_by });
  await db.query(`update actions set details = details || jsonb_build_object('upload', $2::int) where id = $1`, [a.id, id]);
}
