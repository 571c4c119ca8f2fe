import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { parseScript } from '@/commands/script/parse';
import { runScript } from '@/commands/script/run';
import { runCommands } from './commands';

const server = useMswServer();

describe('run commands in a script', () => {
  it('let job = run.sequence … gives the job id as $job.id (and $job.job_id), for jobs.wait id=$job.id', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/run/sequences/7.json`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ job_id: 812, name: 'Segmentation', status: 'pending', url: '/jobs/812' });
      }),
    );
    const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissionsOf('operator')) }));
    r.registerAll(runCommands);
    const waited: number[] = [];
    // Stands in for jobs.wait (another feature's command) to see the value the variable gives it.
    r.register({ id: 'jobs.wait', title: 'Wait for Job to Finish', category: 'Jobs', args: yup.object({ id: yup.number().required() }), run: ({ id }) => void waited.push(id) });
    const result = await runScript(r, parseScript('let job = run.sequence id=7 attack_node_id_1=3 target_node_id_1=4\njobs.wait id=$job.id\njobs.wait id=$job.job_id'));
    expect(result.outcome).toBe('ok');
    expect(bodies).toEqual([{ attack_node_id_1: 3, target_node_id_1: 4, force_unlock: false }]);
    expect(waited).toEqual([812, 812]);
    expect(result.steps[0]!.result).toBe('{"job_id":812,"name":"Segmentation","status":"pending","url":"/jobs/812","id":812}');
  });
});
