import type { Db } from '../db/index';

const WINDOW_MIN = 15;
/** Attempts from one address at one account before that address is refused for the rest of the window. */
const LOCK_AFTER = 20;
/** Attempts from one address (at any accounts) before that address is refused: password spraying. */
const ADDRESS_LIMIT = 200;

/** What one sign-in attempt drew: how many attempts came before it in the window, per key. */
export interface SignInTicket {
  /** Earlier attempts from this address at this account (a success starts the count again). */
  pair: number;
  /** Earlier attempts from this address at any account. */
  address: number;
  /** Recent failures at this account from any address: they slow sign-in down but never lock it. */
  account: number;
}

/**
 * Sign-in throttling that cannot be raced and cannot be used to lock someone else out.
 *
 * Every attempt first takes a ticket: an atomic `insert ... on conflict do update ... returning` on
 * the counters of its address+account pair and of its address, so sixty concurrent guesses get sixty
 * different numbers and those past the limit are refused without a password check. Refusal is per
 * address+account (and per address for spraying): failures from elsewhere never lock the real user out,
 * they only slow the account down (the delay is capped at 8 s).
 */
export class SignInThrottle {
  constructor(private db: Db, private sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {}

  private async bump(key: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `insert into sign_in_counters (key, n, window_start) values ($1, 1, now())
       on conflict (key) do update set
         n = case when sign_in_counters.window_start <= now() - interval '${WINDOW_MIN} minutes' then 1 else sign_in_counters.n + 1 end,
         window_start = case when sign_in_counters.window_start <= now() - interval '${WINDOW_MIN} minutes' then now() else sign_in_counters.window_start end
       returning n`,
      [key],
    );
    return (row?.n ?? 1) - 1;
  }

  async take(email: string, ip: string): Promise<SignInTicket> {
    const e = email.toLowerCase();
    const pair = await this.bump(`pair:${ip}|${e}`);
    const address = await this.bump(`addr:${ip}`);
    return { pair, address, account: await this.recentFailures(e) };
  }

  async recentFailures(email: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `select count(*)::int as n from sign_in_failures where email = $1 and at > now() - interval '${WINDOW_MIN} minutes'`,
      [email.toLowerCase()],
    );
    return rows[0]?.n ?? 0;
  }

  isLocked(ticket: SignInTicket): boolean {
    return ticket.pair >= LOCK_AFTER || ticket.address >= ADDRESS_LIMIT;
  }

  /** No delay for the first 3 failures, then 0.5 s doubling up to 8 s. */
  delayFor(failures: number): number {
    return failures < 3 ? 0 : Math.min(500 * 2 ** (failures - 3), 8000);
  }

  /** Slows the attempt by its own pair's count, or by the account's failures from everywhere (capped). */
  async slowDown(ticket: SignInTicket): Promise<void> {
    const ms = this.delayFor(Math.max(ticket.pair, Math.min(ticket.account, LOCK_AFTER)));
    if (ms > 0) await this.sleep(ms);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.db.query('insert into sign_in_failures (email, ip) values ($1, $2)', [email.toLowerCase(), ip]);
  }

  /** A success: this address starts again for this account, and the account's failures from this address are forgotten. */
  async succeeded(email: string, ip: string): Promise<void> {
    const e = email.toLowerCase();
    await this.db.query('delete from sign_in_counters where key = $1', [`pair:${ip}|${e}`]);
    await this.db.query('delete from sign_in_failures where email = $1 and ip = $2', [e, ip]);
  }
}

export const THROTTLE_WINDOW_MIN = WINDOW_MIN;
