import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { JobAnswers } from '../../server/jobs/answers';
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
});
