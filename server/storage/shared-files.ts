/**
 * Uploaded files (PCAP captures, file-library contents) as every director of one database sees them.
 *
 * Each director keeps its files under its own DATA_DIR (`pcap/uploads/12.cap`, `file-library/<sha256>`:
 * the name is the path under DATA_DIR). With SHARED_FILES=database (the default on PostgreSQL, where
 * several directors may share the database) a file is also copied into the database once written
 * (stored_file_chunks, 1 MiB chunks, then its stored_files row: migration 019_shared_files.sql), so a
 * director that has no local copy reads the database's: `open` streams it chunk by chunk, `local`
 * copies it into DATA_DIR first (captures are read at offsets, through their index). Reading falls back
 * to the database whatever the setting (files seeded without a DATA_DIR live only there).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/index';

const CHUNK = 1 << 20;

export interface OpenedFile {
  size: number;
  body: Readable;
}

export class SharedFiles {
  /**
   * @param dataDir the director's DATA_DIR, or null for the database alone (demo content seeded without one)
   * @param share whether files written here are copied into the database for the other directors
   */
  constructor(
    readonly db: Db,
    readonly dataDir: string | null,
    readonly share: boolean,
  ) {}

  /** The local path of a stored name under DATA_DIR, refusing names that leave it. */
  path(name: string): string {
    if (!this.dataDir) throw new Error('This director has no DATA_DIR to keep files in.');
    if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(name) || name.split('/').some((s) => s === '..' || s === '.')) throw new Error(`"${name}" is not a stored file name`);
    return path.join(this.dataDir, name);
  }

  /** Copies the local file `name` into the database (when sharing); a file stored again replaces the old one. */
  async publish(name: string): Promise<void> {
    if (!this.share) return;
    await this.storeChunks(name, fs.createReadStream(this.path(name), { highWaterMark: CHUNK }));
  }

  /** Stores bytes under `name`: in DATA_DIR when there is one, in the database when sharing or when there is none. */
  async put(name: string, bytes: Buffer): Promise<void> {
    if (this.dataDir) {
      const file = this.path(name);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(file, bytes);
    }
    if (this.share || !this.dataDir) await this.storeChunks(name, Readable.from(bytes.length ? [bytes] : []));
  }

  private async storeChunks(name: string, source: AsyncIterable<Buffer | string>): Promise<void> {
    await this.db.query('delete from stored_files where name = $1', [name]);
    await this.db.query('delete from stored_file_chunks where name = $1', [name]);
    let n = 0;
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const bytes = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.db.query('insert into stored_file_chunks (name, n, bytes) values ($1, $2, $3)', [name, n++, bytes]);
    };
    for await (const chunk of source) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(b);
      pendingBytes += b.length;
      size += b.length;
      if (pendingBytes >= CHUNK) await flush();
    }
    if (pendingBytes || n === 0) await flush();
    await this.db.query('insert into stored_files (name, size, chunks) values ($1, $2, $3)', [name, size, n]);
  }

  /** The database's copy of `name`: its size and chunk count, or null. */
  private async stored(name: string): Promise<{ size: number; chunks: number } | null> {
    const [row] = await this.db.query<{ size: string | number; chunks: number }>('select size, chunks from stored_files where name = $1', [name]);
    return row ? { size: Number(row.size), chunks: row.chunks } : null;
  }

  private chunks(name: string, count: number): Readable {
    const db = this.db;
    return Readable.from(
      (async function* () {
        for (let n = 0; n < count; n++) {
          const [row] = await db.query<{ bytes: Uint8Array }>('select bytes from stored_file_chunks where name = $1 and n = $2', [name, n]);
          if (!row) throw new Error(`Chunk ${n} of stored file ${name} is missing.`);
          yield Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
        }
      })(),
    );
  }

  /** A stream of `name`: the local copy, else the database's; null when neither exists. */
  async open(name: string): Promise<OpenedFile | null> {
    if (this.dataDir) {
      const file = this.path(name);
      const st = await fsp.stat(file).catch(() => null);
      if (st?.isFile()) return { size: st.size, body: fs.createReadStream(file, { highWaterMark: CHUNK }) };
    }
    const s = await this.stored(name);
    return s ? { size: s.size, body: this.chunks(name, s.chunks) } : null;
  }

  /** The whole of `name` (small files only: demo content, tests), or null. */
  async read(name: string): Promise<Buffer | null> {
    const f = await this.open(name);
    if (!f) return null;
    const parts: Buffer[] = [];
    for await (const c of f.body) parts.push(c as Buffer);
    return Buffer.concat(parts);
  }

  /**
   * The local path of `name`, copied from the database first when this director has no copy (written
   * to a temporary name and renamed, so a reader never sees half a file); null when neither has it.
   */
  async local(name: string): Promise<string | null> {
    const file = this.path(name);
    if ((await fsp.stat(file).catch(() => null))?.isFile()) return file;
    const s = await this.stored(name);
    if (!s) return null;
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.${crypto.randomUUID()}.part`;
    try {
      await pipeline(this.chunks(name, s.chunks), fs.createWriteStream(part, { flags: 'wx', mode: 0o600 }));
      await fsp.rename(part, file);
    } catch (e) {
      await fsp.rm(part, { force: true });
      throw e;
    }
    return file;
  }

  /** Removes `name` here and from the database. */
  async remove(name: string): Promise<void> {
    if (this.dataDir) await fsp.rm(this.path(name), { force: true });
    await this.db.query('delete from stored_files where name = $1', [name]);
    await this.db.query('delete from stored_file_chunks where name = $1', [name]);
  }
}

/** SHARED_FILES: 'database' copies uploads into the database for the other directors; 'local' keeps them in DATA_DIR only. */
export type SharedFilesMode = 'database' | 'local';

export function sharedFilesOf(db: Db, config: { dataDir: string; sharedFiles?: SharedFilesMode | undefined }): SharedFiles {
  return new SharedFiles(db, config.dataDir, (config.sharedFiles ?? (db.kind === 'postgres' ? 'database' : 'local')) === 'database');
}
