/**
 * Password rules (OWASP ASVS 2.1): at least PASSWORD_MIN_LENGTH and at most PASSWORD_MAX_LENGTH
 * characters (the lengths are in the shared contract, src/api/contracts/session.ts), any characters
 * allowed, and no common or breached password (common-passwords.txt; source and licence in
 * common-passwords.NOTICE.md). A listed password is refused in any letter case, repeated
 * ("passwordpassword"), or padded with digits and symbols ("Password1234!"); so are a single repeated
 * character and runs of consecutive keys or digits ("123456789012", "qwertyuiopas").
 */
import fs from 'node:fs';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/api/contracts/session';
import { badRequest } from '../http-errors';

let common: Set<string> | null = null;

function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.toLowerCase())
      .filter(Boolean),
  );
  return common;
}

const RUNS = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc4rfv5tgb', 'qazwsxedcrfvtgbyhnujm'];

/** True when the text is one run of consecutive keys or characters (either direction), e.g. "123456789012". */
function isRun(s: string): boolean {
  if (s.length < 4) return false;
  for (const run of RUNS) {
    // Laps of the row, so a run longer than the row wraps around (twelve digits: 123456789012).
    const laps = run.repeat(Math.ceil(s.length / run.length) + 1);
    if (laps.includes(s) || [...laps].reverse().join('').includes(s)) return true;
  }
  return false;
}

/** The smallest unit the text repeats ("abcabcabc" -> "abc"); the text itself when it does not repeat. */
function repeatedUnit(s: string): string {
  for (let n = 1; n <= s.length / 2; n++) if (s.length % n === 0 && s.slice(0, n).repeat(s.length / n) === s) return s.slice(0, n);
  return s;
}

/** Why a password is refused (a sentence for the form), or null when it meets the rules. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const lower = password.toLowerCase();
  const list = commonPasswords();
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  const candidates = new Set([lower, repeatedUnit(lower), core, repeatedUnit(core), lower.replace(/\s+/g, '')]);
  for (const c of candidates) {
    if (c && list.has(c)) return 'Password is a commonly used password; choose another';
  }
  if (repeatedUnit(lower).length === 1 || isRun(lower) || isRun(repeatedUnit(lower))) return 'Password is a sequence or repetition of characters; choose another';
  return null;
}

/** Refuses (400, with the field's error) a new password that does not meet the rules. */
export function requireGoodPassword(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem, { errors: { [field]: [problem] } });
}
