/** The one CSRF check: the token a request sent against its session's, compared in constant time. */
import crypto from 'node:crypto';
import { HttpError } from '../http-errors';

export const CSRF_MESSAGE = 'Invalid or missing CSRF token. Reload the page and try again.';

export function csrfTokenMatches(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Throws 403 unless `sent` is the session's token. */
export function requireCsrfToken(sent: unknown, expected: string | undefined): void {
  if (expected === undefined || !csrfTokenMatches(sent, expected)) throw new HttpError(403, CSRF_MESSAGE);
}
