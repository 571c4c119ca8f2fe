/** At most this many bytes of answers are kept (all 100 legacy pages of 100,000 Actions take about 80 MB). */
const MAX_BYTES = 128 * 1024 * 1024;

/**
 * Whole answers as sent (UTF-8), kept while the state they were made from (a stamp: the library's
 * list version, tags and job statuses; the jobs calls' database state, server/jobs/answers.ts) is
 * unchanged, so asking for the same big page again allocates nothing. The least recently used answers
 * go first beyond MAX_BYTES.
 */
export class AnswerCache {
  private stamp = '';
  private answers = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private currentStamp: () => string) {}

  async get(key: string, build: () => Promise<string>): Promise<Buffer> {
    this.dropIfStale();
    const hit = this.answers.get(key);
    if (hit) {
      // Last used goes last: what is asked for often stays, the least recently used goes first.
      this.answers.delete(key);
      this.answers.set(key, hit);
      return hit;
    }
    const stamp = this.stamp;
    const body = Buffer.from(await build());
    // Kept only when nothing changed while it was being built.
    if (stamp === this.currentStamp()) {
      this.dropIfStale();
      this.answers.set(key, body);
      this.bytes += body.length;
      for (const [k, b] of this.answers) {
        if (this.bytes <= MAX_BYTES) break;
        this.answers.delete(k);
        this.bytes -= b.length;
      }
    }
    return body;
  }

  private dropIfStale(): void {
    const now = this.currentStamp();
    if (now === this.stamp) return;
    this.stamp = now;
    this.answers.clear();
    this.bytes = 0;
  }
}
