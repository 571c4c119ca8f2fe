import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf } from '@/api/contracts/permissions';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { parseScript } from '@/commands/script/parse';
import { runScript } from '@/commands/script/run';
import { argFields } from '@/commands/args-form';
import { FORCE_UNLOCK_LABEL } from '@/api/contracts/engine';
import { runCommands } from './commands';
import type { SearchAnswer, SearchResult } from '@/api/contracts/search';

const server = useMswServer();

// The director's search as it answers for the demo's Segmentation sequence, an evaluation of the same name and an Action.
const OBJECTS: SearchResult[] = [
  { kind: 'simulation', id: 7, label: 'Segmentation', detail: 'S000-0007 · sequence', vid: 'S000-0007', subtype: 'sequence', url: '/simulation/S000-0007?sim_type=sequence', match: 'exact' },
  { kind: 'simulation', id: 41, label: 'Segmentation', detail: 'E000-0041 · evaluation', vid: 'E000-0041', subtype: 'eval', url: '/simulation/E000-0041?sim_type=eval', match: 'exact' },
  { kind: 'action', id: 12, label: 'DNS Query', detail: 'A000-1000 · dns', vid: 'A000-1000', subtype: 'dns', url: '/manage_sims/action/A000-1000', match: 'exact' },
];
const searchHandler = http.get(`${API}/search.json`, ({ request }) => {
  const p = new URL(request.url).searchParams;
  const q = (p.get('q') ?? '').toLowerCase();
  const results = OBJECTS.filter((o) => o.kind === p.get('kind') && (String(o.id) === q || o.vid?.toLowerCase() === q || o.label.toLowerCase().includes(q)));
  return HttpResponse.json<SearchAnswer>({ q, results });
});

function registry() {
  const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissionsOf('operator')) }));
  r.registerAll(runCommands);
  return r;
}

describe('run commands in a script', () => {
  it('let job = run.sequence … gives the job id as $job.id (and $job.job_id), for jobs.wait id=$job.id', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/run/sequences/7.json`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ job_id: 812, name: 'Segmentation', status: 'pending', url: '/jobs/812' });
      }),
      searchHandler,
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

  it('run.action vid=… and run.sequence name=… run what they name; an unknown or ambiguous name fails naming it', async () => {
    const posted: string[] = [];
    server.use(
      searchHandler,
      http.post(`${API}/run/:segment/:id`, ({ params }) => {
        posted.push(`${String(params.segment)}/${String(params.id)}`);
        return HttpResponse.json({ job_id: 900, name: 'x', status: 'pending', url: '/jobs/900' });
      }),
    );
    const r = registry();
    const actors = 'attack_node_id_1=3 target_node_id_1=4';
    const ok = await runScript(r, parseScript(`run.action vid=A000-1000 ${actors}\nrun.sequence name="segmentation" ${actors}\nrun.evaluation name=Segmentation ${actors}\nrun.sequence id=7 ${actors}`));
    expect(ok.outcome).toBe('ok');
    expect(posted).toEqual(['actions/12.json', 'sequences/7.json', 'evaluations/41.json', 'sequences/7.json']);
    const missing = await runScript(r, parseScript(`run.action vid=A999-9999 ${actors}`));
    expect(missing.outcome).not.toBe('ok');
    expect(missing.steps[0]!.error).toBe('No Action with VID "A999-9999" was found.');
    const wrongKind = await runScript(r, parseScript(`run.evaluation id=7 ${actors}`));
    expect(wrongKind.steps[0]!.error).toBe('No Evaluation with id 7 was found.');
    const none = await runScript(r, parseScript(`run.action ${actors}`));
    expect(none.steps[0]!.error).toBe('Choose the Action: give id, vid or name.');
    const both = await runScript(r, parseScript(`run.action id=12 vid=A000-1000 ${actors}`));
    expect(both.steps[0]!.error).toMatch(/Give only one of id, vid and name for the Action/);
    expect(posted).toHaveLength(4);
  });
});

describe('the Run Action form in the palette', () => {
  it('asks for force_unlock by its label, a switch, never by the field name', () => {
    const fields = argFields(runCommands.find((c) => c.id === 'run.action')!);
    const unlock = fields.find((f) => f.name === 'force_unlock');
    expect(unlock).toMatchObject({ label: FORCE_UNLOCK_LABEL, type: 'boolean' });
    // No field of the form shows a raw argument name (snake_case or a bare "id").
    for (const f of fields) expect(f.label).not.toMatch(/_|^id$/);
  });
});
