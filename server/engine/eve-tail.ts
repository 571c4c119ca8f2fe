/**
 * Suricata EVE JSON as an event source: the director tails eve.json files (one JSON object per line)
 * and ingests alert, anomaly and drop events for an integration, as the webhook does.
 * Configured with SURICATA_EVE="<integration id>:<path>[,<id>:<path>...]". Reading starts at the
 * file's end, follows appends and rotation (a smaller file starts again at 0), at most 4 MB a poll.
 */
import fs from 'node:fs';
import type { Db } from '../db/index';
import { ingestEvents, normalizeEvent, type NormalEvent } from './detection';

const KEEP = new Set(['alert', 'anomaly', 'drop']);
const MAX_READ = 4 * 1024 * 1024;

/** An EVE line's event: alert, anomaly and drop events only. */
export function eveLineEvent(o: unknown): NormalEvent | null {
  const type = o && typeof o === 'object' ? (o as { event_type?: unknown }).event_type : undefined;
  return typeof type === 'string' && KEEP.has(type) ? normalizeEvent(o) : null;
}

export interface EveSource {
  integrationId: number;
  path: string;
}

export function parseEveConfig(raw: string | undefined): EveSource[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const i = entry.indexOf(':');
      const id = Number(entry.slice(0, i));
      if (i <= 0 || !Number.isInteger(id) || id <= 0) throw new Error(`SURICATA_EVE entry "${entry}" must be <integration id>:<path>`);
      return { integrationId: id, path: entry.slice(i + 1) };
    });
}

export class EveTail {
  private offset: number;
  private partial = '';
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly db: Db,
    private readonly source: EveSource,
    private readonly windowMs: () => number,
    fromStart = false,
    /** Turns one parsed JSON line into an event (null skips it); other file kinds pass their own. */
    private readonly toEvent: (line: unknown) => NormalEvent | null = eveLineEvent,
  ) {
    this.offset = fromStart ? 0 : fs.existsSync(source.path) ? fs.statSync(source.path).size : 0;
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => void this.poll(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Reads what was appended since the last poll and ingests its events; returns how many were matched. */
  async poll(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    try {
      let size: number;
      try {
        size = fs.statSync(this.source.path).size;
      } catch {
        return 0;
      }
      if (size < this.offset) {
        this.offset = 0;
        this.partial = '';
      }
      if (size === this.offset) return 0;
      const len = Math.min(size - this.offset, MAX_READ);
      const buf = Buffer.alloc(len);
      const fd = fs.openSync(this.source.path, 'r');
      try {
        fs.readSync(fd, buf, 0, len, this.offset);
      } finally {
        fs.closeSync(fd);
      }
      this.offset += len;
      const lines = (this.partial + buf.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      const events: NormalEvent[] = [];
      for (const line of lines) {
        if (!line.trim()) continue;
        try {
          const e = this.toEvent(JSON.parse(line));
          if (e) events.push(e);
        } catch {
          /* a line that is not JSON is skipped */
        }
      }
      if (!events.length) return 0;
      return (await ingestEvents(this.db, this.source.integrationId, events, this.windowMs())).matched;
    } finally {
      this.busy = false;
    }
  }
}
