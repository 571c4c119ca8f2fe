import { startDirector } from '../e2e/director';
import { LIMITS, parseFilterRules } from '../src/api/contracts/filters';
import { parseListQuery } from '../server/jobs/list-query';
import { timedRequest } from './http-client';
import { login } from './jobs-calls';
import { printTable, summarize } from './stats';

/**
 * How fast a filter tree far over the limits is refused (JOB-036: "10,000 conditions answer 400 at
 * once"). The server test proves the refusal runs no query; this prints how long it takes:
 *  1. in-process: JSON.parse of the sent rules and the director's parser (parseFilterRules), and the
 *     jobs list's query parsing (parseListQuery, which refuses the long structuredFilter first);
 *  2. over HTTP on a real director (demo content), one call at a time: POST
 *     /manage_sims/quick_action_ids.json with the 10,000-condition tree, and GET /jobs/list_page_data.json
 *     with a tree one condition over the limit (a URL holding 10,000 conditions is refused by Node's
 *     HTTP parser, 431 and a closed connection, before any handler runs).
 * FILTERS_BENCH_RUNS (default 50) changes the number of samples. Figures are printed; nothing is asserted.
 */

const RUNS = Number(process.env.FILTERS_BENCH_RUNS || 50);
const CONDITIONS = 10_000;

const condition = (object: string) => ({ match_object: object, match_field: 'name', operator: 'contains', value: 'a' });
const tree = (object: string, n = CONDITIONS) => [{ operator: 'or', conditions: [{ operator: 'and', conditions: Array.from({ length: n }, () => condition(object)) }] }];

function timeSync(fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

function refused(fn: () => unknown): void {
  try {
    fn();
  } catch {
    return;
  }
  throw new Error('the huge tree was accepted');
}

const actionsText = JSON.stringify(tree('action'));
const jobsFilter = JSON.stringify({ rules: tree('job') });
console.log(`A tree of ${CONDITIONS.toLocaleString('en-US')} conditions: ${(actionsText.length / 1024).toFixed(0)} KB of JSON; ${RUNS} runs each.\n`);

printTable('In-process', [
  ['JSON.parse + parseFilterRules (actions)', summarize(timeSync(() => refused(() => parseFilterRules('actions', JSON.parse(actionsText)))))],
  ['parseListQuery (jobs, structuredFilter)', summarize(timeSync(() => refused(() => parseListQuery({ filter: 'adhoc', structuredFilter: jobsFilter }))))],
]);

const director = await startDirector();
try {
  const session = await login(director.url);
  const headers = { cookie: session.cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const body = JSON.stringify({ rules: actionsText });
  const listUrl = `${director.url}/jobs/list_page_data.json?filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules: tree('job', LIMITS.maxConditions + 1) }))}`;
  const quick: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = await timedRequest(`${director.url}/manage_sims/quick_action_ids.json`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': session.csrf }, body });
    const b = await timedRequest(listUrl, { headers });
    if (a.status !== 400 || b.status !== 400) throw new Error(`expected 400 and 400, the director answered ${a.status} and ${b.status}`);
    quick.push(a.ms);
    list.push(b.ms);
  }
  console.log('');
  printTable('Over HTTP, the real director (400 each time)', [
    [`POST quick_action_ids.json (${(body.length / 1024).toFixed(0)} KB body)`, summarize(quick)],
    [`GET list_page_data.json (${LIMITS.maxConditions + 1} conditions, ${(listUrl.length / 1024).toFixed(0)} KB URL)`, summarize(list)],
  ]);
} finally {
  await director.stop();
}
