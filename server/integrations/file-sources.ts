/**
 * Integrations that the director reads from a file (Suricata EVE JSON, nftables/ulogd JSON): every
 * enabled one with a source_path gets a tail (server/engine/eve-tail.ts) that starts at the file's
 * end when the integration is first seen and follows appends and rotation. The list is re-read every
 * poll, so integrations created, disabled or deleted while the director runs are picked up.
 */
import type { Db } from '../db/index';
import { EveTail, eveLineEvent } from '../engine/eve-tail';
import type { NormalEvent } from '../engine/detection';
import { FILE_KINDS, type IntegrationServiceStatus } from '../../src/api/contracts/integrations';
import { normalizeUlogd } from './ulogd-json';

const PARSERS: Record<string, (line: unknown) => NormalEvent | null> = {
  suricata_eve: eveLineEvent,
  nftables_ulogd_json: (line) => normalizeUlogd(line),
};

/** The integration service's state per database (what the integrations menu reads, JOB-029). */
const services = new WeakMap<Db, { status: IntegrationServiceStatus; message: string | null }>();

/** The integration service of this database: 'stopped' until an engine starts it; 'error' with the message while its polls fail. */
export const integrationServiceState = (db: Db) => services.get(db) ?? { status: 'stopped' as const, message: null };

export class FileSources {
  private readonly tails = new Map<string, EveTail>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly db: Db,
    private readonly windowMs: () => number,
  ) {}

  start(intervalMs = 1000): void {
    services.set(this.db, { status: 'running', message: null });
    this.timer = setInterval(
      () =>
        void this.poll().then(
          () => services.set(this.db, { status: 'running', message: null }),
          (e: Error) => {
            services.set(this.db, { status: 'error', message: e.message });
            console.error('integration file sources:', e.message);
          },
        ),
      intervalMs,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    services.set(this.db, { status: 'stopped', message: null });
  }

  /** Re-reads the integrations, then each tail's new lines; returns the number of events matched to job actions. */
  async poll(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    try {
      const rows = await this.db.query<{ id: number; type: string; source_path: string }>(
        `select id, type, source_path from integrations where enabled and source_path is not null and type = any($1::text[]) order by id`,
        [FILE_KINDS],
      );
      const wanted = new Set<string>();
      for (const r of rows) {
        const key = `${r.id}:${r.source_path}`;
        wanted.add(key);
        const parse = PARSERS[r.type];
        if (!this.tails.has(key) && parse) this.tails.set(key, new EveTail(this.db, { integrationId: r.id, path: r.source_path }, this.windowMs, false, parse));
      }
      for (const key of [...this.tails.keys()]) if (!wanted.has(key)) this.tails.delete(key);
      let matched = 0;
      for (const tail of this.tails.values()) matched += await tail.poll();
      return matched;
    } finally {
      this.busy = false;
    }
  }
}
