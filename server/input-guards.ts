import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, notFound } from './http-errors';

// Refusals of hostile input that no route should have to think about, applied to every route before its
// handler: NUL bytes (PostgreSQL cannot store them in text), nesting deeper than any contract uses (yup
// validation recurses and would overflow the stack), and id path parameters that are not bounded integers
// (PostgreSQL's integer range; `1e308` or `99999999999999999999` would otherwise reach a query).

/** Deepest nesting of arrays/objects any call accepts; contracts nest a few levels at most. */
export const MAX_DEPTH = 32;
/** Largest id a path may name: PostgreSQL's `integer` maximum. */
const MAX_ID = 2_147_483_647;
/** Path parameters that name a row by its integer id (an optional `.json`/`.pcap`/`.csv` suffix is allowed). */
const ID_PARAMS = new Set(['id', 'file_id', 'fileId', 'upload_id', 'sim_id', 'no']);
const NUMERIC_LOOKING = /^[\s+-]*(\d|\.\d|0x|infinity|nan)/i;
const PLAIN_ID = /^(\d+)(\.(json|pcap|csv))?$/;

/** Where a value breaks a rule: 'nul' (a NUL byte in a key or string), 'depth', or null when clean. Iterative, so any depth is safe. */
export function hostileValue(root: unknown): 'nul' | 'depth' | null {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) return 'nul';
    } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      if (depth >= MAX_DEPTH) return 'depth';
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (k.includes('\0')) return 'nul';
        stack.push({ value: v, depth: depth + 1 });
      }
    }
  }
  return null;
}

function refuseHostile(where: string, value: unknown): void {
  const problem = hostileValue(value);
  if (problem === 'nul') throw badRequest(`The request ${where} contains a NUL character, which is not allowed.`);
  if (problem === 'depth') throw badRequest(`The request ${where} is nested more than ${MAX_DEPTH} levels deep.`);
}

/** An id path parameter that looks numeric must be a whole number in PostgreSQL's integer range. */
function checkIdParams(params: unknown): void {
  if (!params || typeof params !== 'object') return;
  for (const [key, raw] of Object.entries(params as Record<string, unknown>)) {
    if (!ID_PARAMS.has(key) || typeof raw !== 'string' || !NUMERIC_LOOKING.test(raw)) continue;
    const m = PLAIN_ID.exec(raw);
    if (!m) throw badRequest(`${key} must be a positive whole number, got "${raw.slice(0, 40)}".`);
    const digits = m[1]!.replace(/^0+(?=\d)/, '');
    if (digits.length > 10 || Number(digits) > MAX_ID) throw notFound(`No record has ${key} ${digits.slice(0, 40)}.`);
  }
}

/** The checks of a call that came another way than an HTTP request (the actor channel): its path's parameters and its body. */
export function refuseHostileCall(params: unknown, body: unknown): void {
  refuseHostile('parameters', params);
  checkIdParams(params);
  refuseHostile('body', body);
}

/** Registers the checks as the first preHandler (after multipart fields have been attached to the body). */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preHandler', async (req: FastifyRequest) => {
    if (req.url.includes('%00') || req.url.includes('\0')) throw badRequest('The request path contains a NUL character, which is not allowed.');
    refuseHostile('parameters', req.params);
    checkIdParams(req.params);
    refuseHostile('query', req.query);
    refuseHostile('body', req.body);
  });
}
