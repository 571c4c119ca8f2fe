/**
 * Counts the writes committed through one database handle, so in-memory caches (the library index)
 * can skip re-reading the database while nothing was written here and still see every write made
 * through this director in the very next call. A statement counts as a write unless it is a plain
 * read (select, show, explain); a transaction counts once it has ended, if it wrote.
 */
export class WriteSignal {
  private count = 0;

  /** Moves after every committed write. */
  get version(): number {
    return this.count;
  }

  bump(): void {
    this.count++;
  }
}

const READ = /^\s*(select|show|explain)\b/i;

export function isWrite(sql: string): boolean {
  return !READ.test(sql);
}
