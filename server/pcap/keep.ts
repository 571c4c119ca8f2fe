/**
 * Keeping an analysed capture as an upload and an Action's processed capture, the way the upload
 * calls do (routes/upload.ts) and the demo seed does for its PCAP Actions (seed/demo-captures.ts):
 * the conversations and flags of an upload row, the processed capture on disk, its file-library copy.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Db } from '../db/index';
import type { Analysis } from './analyze';
import { assess, type AssessOptions } from './assess';
import { insertConversations } from './conversation-rows';
import type { AddressMapping } from './anonymize';
import { storedInfo, type PcapStore } from './store';
import { writeProcessedCapture } from './transform';
import { FileStore } from '../file-library/store';

/** Processed captures up to this size are also copied into the file library (its listing and preview); the download streams the processed file from disk whatever its size. */
const LIBRARY_COPY_MAX = 64 * 1024 * 1024;

/** The statement that completes an upload (100%) with its flags, notifications and reader facts. */
export const UPDATE_DONE = `update pcap_uploads set status = $2, percent_complete = 100, pcap_library_id = case when $3 then $1 else null end, valid_upload = $3, has_two_ips = $4, contains_udp = $5,
    remove_non_ip_info = $6, converted = $7, stripped_vlan_tags = $8, layer_2_exists = $9, notifications = $10::jsonb,
    summary = $11::jsonb, mapping = $12::jsonb, updated_at = now()
  where id = $1`;

/**
 * Stores the conversations, flags, notifications and reader facts of an analysed upload; it is then
 * complete (100%), but only once `stored` (the capture file being written to disk) has settled too.
 */
export async function storeAssessment(db: Db, uploadId: number, analysis: Analysis, opts: AssessOptions, stored: Promise<void> = Promise.resolve()): Promise<void> {
  const a = assess(analysis, opts);
  await insertConversations(db, uploadId, a.conversations);
  await stored;
  await db.query(UPDATE_DONE, [
    uploadId,
    a.status,
    a.flags.valid_upload,
    a.flags.has_two_ips,
    a.flags.contains_udp,
    a.flags.remove_non_ip_info,
    a.flags.converted,
    a.flags.stripped_vlan_tags,
    a.flags.layer_2_exists,
    JSON.stringify(a.captureNotifications),
    JSON.stringify({ ...a.summary, capture: storedInfo(analysis) }),
    JSON.stringify(a.mapping),
  ]);
}

/** What of an upload row its processed capture is made from. */
export interface ProcessableUpload {
  id: number;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
  mapping: AddressMapping;
  summary: Record<string, unknown>;
}

/** Writes the processed capture of an upload (only the kept conversations, normalized, anonymized as asked): its path, packets and size. */
export async function writeProcessed(store: PcapStore, u: ProcessableUpload, keepRows: ReadonlySet<number>): Promise<{ file: string; packets: number; size: number }> {
  const capture = (u.summary.capture ?? {}) as { nanosecond?: boolean };
  const file = store.processedFile(u.id);
  const input = (await store.localUpload(u.id)) ?? store.uploadFile(u.id);
  const result = await writeProcessedCapture(input, file, `${file}.idx`, {
    keepRows,
    anonymizeIp: u.anonymized_ip,
    anonymizeMac: u.anonymized_mac,
    mapping: u.mapping,
    nanosecond: capture.nanosecond === true,
    hasFragments: u.summary.hasFragments === true,
  });
  await store.publishProcessed(u.id);
  return { file, packets: result.packets, size: (await fsp.stat(file)).size };
}

export async function hashFile(file: string): Promise<{ sha256: string; sha1: string; md5: string }> {
  const h256 = crypto.createHash('sha256');
  const h1 = crypto.createHash('sha1');
  const h5 = crypto.createHash('md5');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    h256.update(chunk as Buffer);
    h1.update(chunk as Buffer);
    h5.update(chunk as Buffer);
  }
  return { sha256: h256.digest('hex'), sha1: h1.digest('hex'), md5: h5.digest('hex') };
}

/**
 * Links the upload to its Action and copies the processed capture into the file library, stored as an
 * uploaded library file is (small captures only; the download streams the processed capture).
 */
export async function keepProcessed(
  db: Db,
  store: PcapStore,
  uploadId: number,
  actionId: number,
  processed: { file: string; packets: number; size: number },
  library: { name: string; notes: string; userId: number | null },
): Promise<void> {
  const hashes = await hashFile(processed.file);
  const content = processed.size <= LIBRARY_COPY_MAX ? await new FileStore(store.files).keepCopy(processed.file, hashes.sha256) : null;
  await db.query(
    `insert into file_library (orig_file_name, sha256sum, sha1sum, md5sum, size, file_notes, file_restrictions, content_file, created_by)
     values ($1, $2, $3, $4, $5, $6, 'none', $7, $8)`,
    [library.name, hashes.sha256, hashes.sha1, hashes.md5, processed.size, library.notes, content, library.userId],
  );
  await db.query('update pcap_uploads set action_id = $2, processed_packets = $3, processed_size = $4, updated_at = now() where id = $1', [
    uploadId,
    actionId,
    processed.packets,
    processed.size,
  ]);
}
