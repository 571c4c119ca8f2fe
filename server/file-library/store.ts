/**
 * File-library bytes on disk (DATA_DIR/file-library/<sha256>): an upload is hashed (sha256, sha1, md5)
 * and written as it streams in, to `.incoming/` first, and moved to its content-addressed name once the
 * upload is accepted. Memory stays flat whatever the size; nothing is ever held whole.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'file-library');
    this.incomingDir = path.join(this.dir, '.incoming');
  }

  /** The stored file of a content name (a sha256 hex), refusing anything else. */
  pathOf(name: string): string {
    if (!/^[0-9a-f]{64}$/.test(name)) throw new Error(`"${name}" is not a file-library content name`);
    return path.join(this.dir, name);
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

  /** Moves an accepted upload to its content name (the same bytes uploaded twice are stored once); answers the name. */
  async keep(file: ReceivedFile): Promise<string> {
    await fsp.rename(file.incoming, this.pathOf(file.sha256));
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
