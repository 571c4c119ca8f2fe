/**
 * A poll's body checked without yup when it is plainly well-formed: what `pollSchema`
 * (src/api/contracts/engine.ts) would give back for it, or undefined for anything else, which yup then
 * checks and answers with its messages. Why: the director checks about three polls per action, and yup
 * took about 0.1 ms of CPU per poll under load (bench:engine, 50 actors), a tenth of the director's time
 * per action; this takes a few microseconds.
 *
 * It accepts a strict subset of what yup accepts: values of exactly the schema's types, never one that
 * yup would cast or trim (a numeric string, padded text), and no unknown key; defaults as the schema's.
 * tests/server/plain-poll.test.ts checks that on generated bodies against the schema itself.
 */
import type * as yup from 'yup';
import type { pollSchema } from '../../src/api/contracts/engine';

type Poll = yup.InferType<typeof pollSchema>;

const POLL_KEYS = new Set(['session', 'holding', 'wait_ms', 'ready', 'evidence', 'results']);
const READY_KEYS = new Set(['work_id', 'port_map', 'port_failures', 'login']);
const EVIDENCE_KEYS = new Set(['work_id', 'evidence']);
const RESULT_KEYS = new Set(['work_id', 'outcome', 'blocked', 'message', 'evidence']);
const OUTCOMES = new Set(['ran', 'errored', 'incompatible', 'aborted']);
const LOGIN = /^[a-z_][a-z0-9_.-]*$/i;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const onlyKeys = (v: Record<string, unknown>, keys: Set<string>) => Object.keys(v).every((k) => keys.has(k));
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
/** Text yup would keep as it is (no trimming) within max characters; `min` 1 when required. */
const isText = (v: unknown, max: number, min = 0): v is string => typeof v === 'string' && v.length >= min && v.length <= max && v.trim() === v;

/** Items of an optional array of at most `max`, each mapped (undefined: not plain, the whole body goes to yup). */
function items<T>(v: unknown, max: number, each: (item: unknown) => T | undefined): T[] | undefined {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > max) return undefined;
  const out: T[] = [];
  for (const item of v) {
    const mapped = each(item);
    if (mapped === undefined) return undefined;
    out.push(mapped);
  }
  return out;
}

/** An optional object field (yup.object() with default {}). */
const objectOrEmpty = (v: unknown): Record<string, unknown> | undefined => (v === undefined ? {} : isPlainObject(v) ? v : undefined);

export function plainPoll(body: unknown): Poll | undefined {
  if (!isPlainObject(body) || !onlyKeys(body, POLL_KEYS)) return undefined;
  const { session, holding, wait_ms: waitMs, ready, evidence, results } = body;
  if (!isText(session, 64, 1)) return undefined;
  const held = items(holding, 100, (id) => (isId(id) ? id : undefined));
  const wait = waitMs === undefined ? 5000 : typeof waitMs === 'number' && Number.isInteger(waitMs) && waitMs >= 0 && waitMs <= 20_000 ? waitMs : undefined;
  const readies = items(ready, 16, (r) => {
    if (!isPlainObject(r) || !onlyKeys(r, READY_KEYS) || !isId(r.work_id)) return undefined;
    const portMap = objectOrEmpty(r.port_map);
    const failures = objectOrEmpty(r.port_failures);
    if (!portMap || !failures) return undefined;
    if (r.login !== undefined && !(isText(r.login, 32) && LOGIN.test(r.login))) return undefined;
    return { work_id: r.work_id, port_map: portMap, port_failures: failures, ...(r.login !== undefined ? { login: r.login } : {}) };
  });
  const evidences = items(evidence, 16, (e) => {
    if (!isPlainObject(e) || !onlyKeys(e, EVIDENCE_KEYS) || !isId(e.work_id) || !isPlainObject(e.evidence)) return undefined;
    return { work_id: e.work_id, evidence: e.evidence };
  });
  const outcomes = items(results, 16, (r) => {
    if (!isPlainObject(r) || !onlyKeys(r, RESULT_KEYS) || !isId(r.work_id)) return undefined;
    if (typeof r.outcome !== 'string' || !OUTCOMES.has(r.outcome)) return undefined;
    const blocked = r.blocked === undefined ? null : r.blocked === null || typeof r.blocked === 'boolean' ? r.blocked : undefined;
    const message = r.message === undefined ? null : r.message === null || (typeof r.message === 'string' && r.message.length <= 2000) ? r.message : undefined;
    const ev = objectOrEmpty(r.evidence);
    if (blocked === undefined || message === undefined || !ev) return undefined;
    return { work_id: r.work_id, outcome: r.outcome, blocked, message, evidence: ev };
  });
  if (!held || wait === undefined || !readies || !evidences || !outcomes) return undefined;
  return { session, holding: held, wait_ms: wait, ready: readies, evidence: evidences, results: outcomes } as Poll;
}
