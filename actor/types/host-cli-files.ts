/**
 * host_cli file delivery: before the script runs, each attached file is written to its destination
 * directory (an absolute path on this actor) under its destination name (or its own name). A file
 * already there follows destination_exists_result (overwrite, errored, use_existing). After
 * delivery_wait_time seconds (at most 60) every delivered file must still be there with its sha256;
 * otherwise (a security control removed or changed it) delivery_failed_result decides: blocked,
 * errored, or success (go on). automatic_file_cleanup removes the files afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { sleep } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions } from './contract';

const MAX_WAIT_S = 60;

export interface Delivered {
  path: string;
  sha256: string;
  written: boolean;
}

const digestOf = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Delivers the files; an Outcome when the delivery decides the action. */
export async function deliverFiles(w: WorkPayload, signal: AbortSignal, opts: PerformOptions, delivered: Delivered[]): Promise<Outcome | null> {
  const files = w.files ?? [];
  if (!files.length) return null;
  if (!opts.fetchFile) throw new Incompatible('This actor cannot download files from its director.');
  const d = w.details;
  const exists = typeof d.destination_exists_result === 'string' ? d.destination_exists_result : 'overwrite';
  for (const f of files) {
    const dir = f.destination_directory ?? '';
    if (!path.isAbsolute(dir) || /^[A-Za-z]:[\\/]/.test(dir) !== (process.platform === 'win32')) {
      throw new Incompatible(`The destination directory ${dir || '(none)'} of ${f.name} is not a path on this actor.`);
    }
    const target = path.join(dir, path.basename(f.destination_name || f.name));
    if (fs.existsSync(target)) {
      if (exists === 'errored') return { outcome: 'errored', blocked: null, message: `${target} already exists.`, evidence: { files: delivered } };
      if (exists === 'use_existing') {
        delivered.push({ path: target, sha256: digestOf(target), written: false });
        continue;
      }
    }
    const bytes = await opts.fetchFile(f.id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(target, bytes, { mode: 0o644 });
    delivered.push({ path: target, sha256: f.sha256.toLowerCase(), written: true });
  }
  const wait = Math.min(Math.max(Number(d.delivery_wait_time) || 0, 0), MAX_WAIT_S);
  if (wait) await sleep(wait * 1000, signal);
  const lost = delivered.filter((x) => !fs.existsSync(x.path) || digestOf(x.path) !== x.sha256);
  if (!lost.length) return null;
  const message = `Delivered file ${lost.map((x) => x.path).join(', ')} was removed or changed after delivery`;
  const failed = typeof d.delivery_failed_result === 'string' ? d.delivery_failed_result : 'blocked';
  if (failed === 'success') return null;
  if (failed === 'errored') return { outcome: 'errored', blocked: null, message, evidence: { files: delivered } };
  return { outcome: 'ran', blocked: true, message, evidence: { files: delivered } };
}

/** Removes the files this action wrote (automatic_file_cleanup). */
export function removeDelivered(w: WorkPayload, delivered: Delivered[]): void {
  if (w.details.automatic_file_cleanup === false) return;
  for (const x of delivered) if (x.written) fs.rmSync(x.path, { force: true });
}
