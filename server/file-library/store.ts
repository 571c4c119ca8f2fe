/**
 * File-library bytes on disk (DATA_DIR/file-library/<sha256>): an upload is hashed (sha256, sha1, md5)
 * and written as it streams in, to `.incoming/` first, and moved to its content-addressed name once the
 * upload is accepted. Memory stays flat whatever the size; nothing is ever held whole. Kept files are
 * shared with the other directors of the database through SharedFiles (SHARED_FILES=database), and
 * read from there when this director has no copy.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OpenedFile, SharedFiles } from '../storage/shared-files';

export interface ReceivedFile {
  /** Where the bytes wait until the upload is accepted (`keep`) or refused (`discard`). */
  incoming: string;
  size: number;
  sha256: string;
  sha1: string;
  md5: string;
}

/** Leftovers of uploads cut short (a crash, kill -9) older than this are removed when the library starts. */
const STALE_INCOMING_MS = 60 * 60_000;

export class FileStore {
  readonly dir: string;
  private readonly incomingDir: string;

  constructor(readonly files: SharedFiles) {
    // Without a DATA_DIR (demo content seeded into the database alone) only put and open are used.
    this.dir = files.dataDir ? files.path('file-library') : '';
    this.incomingDir = path.join(this.dir, '.incoming');
  }

  /** The stored name of a content name (a sha256 hex), refusing anything else. */
  private static nameOf(content: string): string {
    if (!/^[0-9a-f]{64}$/.test(content)) throw new Error(`"${content}" is not a file-library content name`);
    return `file-library/${content}`;
  }

  /** The bytes of a content name: this director's copy, else the database's; null when stored nowhere. */
  open(content: string): Promise<OpenedFile | null> {
    return this.files.open(FileStore.nameOf(content));
  }

  /** Stores bytes already in hand (demo content, processed captures) as an upload is stored; answers the content name. */
  async put(bytes: Buffer): Promise<string> {
    const content = crypto.createHash('sha256').update(bytes).digest('hex');
    await this.files.put(FileStore.nameOf(content), bytes);
    return content;
  }

  /** Writes a stream to `.incoming/`, hashing it on the way; a failed stream leaves nothing behind. */
  async receive(stream: Readable): Promise<ReceivedFile> {
    await fsp.mkdir(this.incomingDir, { recursive: true, mode: 0o700 });
    const incoming = path.join(this.incomingDir, `${crypto.randomUUID()}.part`);
    const hashes = { sha256: crypto.createHash('sha256'), sha1: crypto.createHash('sha1'), md5: crypto.createHash('md5') };
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        for (const h of Object.values(hashes)) h.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tap, fs.createWriteStream(incoming, { flags: 'wx', mode: 0o600 }));
    } catch (e) {
      await fsp.rm(incoming, { force: true });
      throw e;
    }
    return { incoming, size, sha256: hashes.sha256.digest('hex'), sha1: hashes.sha1.digest('hex'), md5: hashes.md5.digest('hex') };
  }

  /** Copies a file written elsewhere (a processed capture) whose sha256 is known into the library; answers the content name. */
  async keepCopy(file: string, sha256: string): Promise<string> {
    const name = FileStore.nameOf(sha256);
    await fsp.mkdir(this.dir, { recursive: true });
    await fsp.copyFile(file, this.files.path(name));
    await this.files.publish(name);
    return sha256;
  }

  /** Moves an accepted upload to its content name (the same bytes uploaded twice are stored once); answers the name. */
  async keep(file: ReceivedFile): Promise<string> {
    const name = FileStore.nameOf(file.sha256);
    await fsp.rename(file.incoming, this.files.path(name));
    await this.files.publish(name);
    return file.sha256;
  }

  async discard(file: ReceivedFile | null): Promise<void> {
    if (file) await fsp.rm(file.incoming, { force: true });
  }

  /** Removes uploads cut short long ago (a crash or kill -9 mid-upload). */
  async removeStaleIncoming(now = Date.now()): Promise<number> {
    const names = await fsp.readdir(this.incomingDir).catch(() => [] as string[]);
    let removed = 0;
    for (const n of names) {
      const p = path.join(this.incomingDir, n);
      const st = await fsp.stat(p).catch(() => null);
      if (st && now - st.mtimeMs > STALE_INCOMING_MS) {
        await fsp.rm(p, { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}
