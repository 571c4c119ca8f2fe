import type { Db } from '../db/index';

const WINDOW_MIN = 15;
const LOCK_AFTER = 20;

/** Failed sign-ins per email in the last 15 minutes slow down further tries, then refuse them. */
export class SignInThrottle {
  constructor(private db: Db, private sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {}

  async recentFailures(email: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `select count(*)::int as n from sign_in_failures where email = $1 and at > now() - interval '${WINDOW_MIN} minutes'`,
      [email.toLowerCase()],
    );
    return rows[0]?.n ?? 0;
  }

  isLocked(failures: number): boolean {
    return failures >= LOCK_AFTER;
  }

  /** No delay for the first 3 failures, then 0.5 s doubling up to 8 s. */
  delayFor(failures: number): number {
    return failures < 3 ? 0 : Math.min(500 * 2 ** (failures - 3), 8000);
  }

  async slowDown(failures: number): Promise<void> {
    const ms = this.delayFor(failures);
    if (ms > 0) await this.sleep(ms);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.db.query('insert into sign_in_failures (email, ip) values ($1, $2)', [email.toLowerCase(), ip]);
  }

  async clear(email: string): Promise<void> {
    await this.db.query('delete from sign_in_failures where email = $1', [email.toLowerCase()]);
  }
}

export const THROTTLE_WINDOW_MIN = WINDOW_MIN;
