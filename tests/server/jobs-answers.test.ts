import { describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { JobAnswers } from '../../server/jobs/answers';
import { heldRange } from '../../server/jobs/held-range';
import { reopenDemoJobs } from './job-fixtures';
import { useTestServer } from './helpers';
import type { JobDetail, JobListAnswer, StepActionsAnswer } from '@/api/contracts/jobs';

/**
 * The jobs calls' kept answers (server/jobs/answers.ts): asked again they come from memory, and every
 * committed write, through this director or another connection (another director), shows in the very
 * next call; an answer built while a write committed is not kept.
 */

const s = useTestServer({
  prepare: async (t) => {
    await seedDemo(t.db);
    await reopenDemoJobs(t.db);
  },
  timeout: 120_000,
});
const admin = s.session('admin');

async function get<T>(url: string): Promise<T> {
  const res = await s.call('GET', url, { as: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}
const firstPage = () => get<JobListAnswer>('/jobs/list_page_data.json?size=30');
const newestName = async () => (await firstPage()).jobs![0]!.job_name;

describe('kept jobs answers', () => {
  it('a list page, a job and the actions of its steps show a write through this director in the next call', async () => {
    const before = await firstPage();
    const id = before.jobs![0]!.id;
    expect(await firstPage()).toEqual(before);
    await s.db.query('update jobs set name = $2 where id = $1', [id, 'Renamed through this director']);
    expect(await newestName()).toBe('Renamed through this director');

    const job = await get<JobDetail>(`/jobs/${id}.json`);
    expect(job.name).toBe('Renamed through this director');
    await s.db.query(`update jobs set progress = 42 where id = $1`, [id]);
    expect((await get<JobDetail>(`/jobs/${id}.json`)).progress).toBe(42);

    const [step] = await s.db.query<{ id: number }>('select s.id from job_steps s where exists (select 1 from job_actions a where a.job_step_id = s.id) order by s.id limit 1');
    const url = `/jobs/list_page_job_actions?job_step_ids[]=${step!.id}`;
    const actions = await get<StepActionsAnswer>(url);
    const [action] = actions[String(step!.id)]!;
    const next = action!.status === 'ran' ? 'not run' : 'ran';
    await s.db.query('update job_actions set status = $2 where id = $1', [action!.id, next]);
    expect((await get<StepActionsAnswer>(url))[String(step!.id)]!.find((a) => a.id === action!.id)?.status).toBe(next);
  });

  it('a job created, or a write through another connection (as another director writes), shows in the next call', async () => {
    const before = await firstPage();
    const other = await s.connectAgain();
    await other.query(
      `insert into jobs (name, status, progress, started_at) values ('Made by another director', 'completed', 100, now())`,
    );
    const after = await firstPage();
    expect(after.total_jobs).toBe(before.total_jobs + 1);
    expect(after.jobs![0]!.job_name).toBe('Made by another director');
    await other.query(`update jobs set name = 'Renamed by another director' where id = $1`, [after.jobs![0]!.id]);
    expect(await newestName()).toBe('Renamed by another director');
    const filtered = await get<JobListAnswer>('/jobs/list_page_data.json?size=30&filterVal=another%20director');
    expect(filtered.filtered_jobs!.map((j) => j.job_name)).toEqual(['Renamed by another director']);
  });

  it('an answer is built once while nothing is written, and one built while a write committed is not kept', async () => {
    const answers = new JobAnswers(s.db);
    const other = await s.connectAgain();
    let builds = 0;
    const build = async () => ({ n: ++builds });
    // On PostgreSQL the stamp is the server's snapshot, which any commit moves, in any database of the
    // cluster (the other test files' too): "kept" is checked on two calls in a row with no commit
    // anywhere between them, tried until a pair has none. A cache that keeps nothing fails every pair.
    const kept = async (): Promise<void> => {
      for (let pair = 0; pair < 50; pair++) {
        const first = (await answers.get('k', build)).toString();
        const built = builds;
        if ((await answers.get('k', build)).toString() === first && builds === built) return;
      }
      throw new Error('no answer was kept over 50 pairs of calls');
    };
    expect((await answers.get('k', build)).toString()).toBe('{"n":1}');
    await kept();
    // A write that commits while the answer is being built: the answer goes out, but is not kept, so
    // the next call builds again (whatever else commits: a call that finds nothing kept builds once).
    const racing = async () => {
      const n = ++builds;
      await other.query(`update jobs set progress = progress where id = (select max(id) from jobs)`);
      return { n };
    };
    await s.db.query(`update jobs set progress = progress where id = (select max(id) from jobs)`);
    const before = builds;
    expect((await answers.get('k', racing)).toString()).toBe(`{"n":${before + 1}}`);
    expect((await answers.get('k', build)).toString()).toBe(`{"n":${before + 2}}`);
    await kept();
  });

  describe('a date range is keyed by the jobs it holds', () => {
    // Jobs started in 1999, before any demo job: their times to the microsecond.
    const T1 = '1999-03-01T10:00:00.123456Z';
    const T2 = '1999-03-01T11:00:00.500001Z';
    const add = async (name: string, at: string) =>
      s.db.query(`insert into jobs (name, status, progress, started_at) values ($1, 'completed', 100, $2::timestamptz)`, [name, at]);
    const list = (start: string, end: string) => get<JobListAnswer>(`/jobs/list_page_data.json?size=30&filterRange=${encodeURIComponent(`${start},${end}`)}`);
    const names = (a: JobListAnswer) => (a.filtered_jobs ?? []).map((j) => j.job_name);

    it('narrows a range to its first and last job time to the millisecond (floored, ceiled), keeps an open end open, and says empty', async () => {
      await add('Held range first', T1);
      await add('Held range last', T2);
      const d = (x: string) => new Date(x);
      expect(await heldRange(s.db, { start: d('1999-03-01T09:00:00Z'), end: d('1999-03-01T12:00:00Z') })).toEqual({ start: d('1999-03-01T10:00:00.123Z'), end: d('1999-03-01T11:00:00.501Z') });
      expect(await heldRange(s.db, { start: d('1999-03-01T10:30:00Z'), end: null })).toEqual({ start: d('1999-03-01T11:00:00.500Z'), end: null });
      expect(await heldRange(s.db, { start: null, end: d('1999-03-01T10:30:00Z') })).toEqual({ start: null, end: d('1999-03-01T10:00:00.124Z') });
      expect(await heldRange(s.db, { start: d('1999-03-01T10:10:00Z'), end: d('1999-03-01T10:50:00Z') })).toBe('empty');
      expect(await heldRange(s.db, { start: d('1998-01-01T00:00:00Z'), end: d('1998-12-31T00:00:00Z') })).toBe('empty');
      // The narrowed range holds exactly the jobs of the range: both, to the microsecond.
      const wide = await list('1999-03-01T09:00:00.000Z', '1999-03-01T12:00:00.000Z');
      expect(names(wide)).toEqual(['Held range last', 'Held range first']);
      expect(await list('1999-03-01T10:00:00.123Z', '1999-03-01T11:00:00.501Z')).toEqual(wide);
      expect(names(await list('1999-03-01T10:00:00.124Z', '1999-03-01T12:00:00.000Z'))).toEqual(['Held range last']);
    });

    it('ranges that hold the same jobs share one kept answer; a job added inside the range shows in the next call', async () => {
      const statements = vi.spyOn(s.db, 'query');
      const listStatements = () => statements.mock.calls.filter(([sql]) => /from jobs j\b/.test(String(sql))).length;
      try {
        // The spy sees the list's statements: a range holding other jobs is built.
        const seen = listStatements();
        expect(names(await list('1999-03-01T09:00:00.000Z', '1999-03-01T10:30:00.000Z'))).toEqual(['Held range first']);
        expect(listStatements()).toBeGreaterThan(seen);
        // On PostgreSQL any commit in the cluster moves the stamp (see above): tried until a pair of calls has none between them.
        let shared = false;
        for (let pair = 0; pair < 50 && !shared; pair++) {
          // Ranges never asked before (a new millisecond each pair), all holding the same two jobs.
          const ms = String(pair).padStart(3, '0');
          const first = await list(`1999-03-01T09:00:00.${ms}Z`, '1999-03-01T12:00:00.000Z');
          const before = listStatements();
          const second = await list(`1999-03-01T09:30:00.${ms}Z`, `1999-03-01T11:59:59.${ms}Z`);
          expect(second).toEqual(first);
          shared = listStatements() === before;
        }
        expect(shared, 'the second range read the jobs again in every pair').toBe(true);
      } finally {
        statements.mockRestore();
      }
      await add('Held range added', '1999-03-01T11:30:00Z');
      expect(names(await list('1999-03-01T09:30:00.000Z', '1999-03-01T11:59:59.999Z'))).toEqual(['Held range added', 'Held range last', 'Held range first']);
    });
  });
});
