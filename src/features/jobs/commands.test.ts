// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { CANCEL_CONFIRM, deleteConfirmText, type JobListItem } from '@/api/contracts/jobs';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { STOPPED_MESSAGE } from '@/commands/abort';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { parseScript } from '@/commands/script/parse';
import { runScript } from '@/commands/script/run';
import type { CommandContext } from '@/commands/types';
import { clearToasts, toastStore } from '@/ui/toasts';
import { jobsCommands } from './commands';
import { dialogs } from './dialogs';
import { jobPaneState, jobsPaneState, resetPaneStates, setRows } from './pane-state';
import { workbenchCommands } from '@/panes/workbench-commands';

const server = useMswServer();

const job = (id: number, status: JobListItem['job_status']): JobListItem => ({
  id,
  job_id: id,
  job_name: `Job ${id}`,
  job_status: status,
  job_user: 'Ada Admin',
  job_time: new Date().toISOString(),
  progress: 0,
  published_status: 0,
  latest_published_time: null,
  latest_published_pipeline: null,
  assessment_name: null,
  simulation: null,
  action: null,
});

let confirm: ReturnType<typeof vi.fn<(m: string) => Promise<boolean>>>;
let invalidate: ReturnType<typeof vi.spyOn>;

function registry(role: Role, pane: CommandContext['activePane'] = { kind: 'jobs', params: {} }) {
  const qc = new QueryClient();
  invalidate = vi.spyOn(qc, 'invalidateQueries');
  const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(permissionsOf(role)), activePane: pane, queryClient: qc, confirm }));
  r.registerAll(jobsCommands);
  return r;
}

beforeEach(() => {
  resetPaneStates();
  clearToasts();
  confirm = vi.fn(async () => true);
  dialogs.publish = null;
});

describe('jobs commands', () => {
  it('register without hotkey conflicts, beside the workbench commands, in the jobs and job panes', () => {
    const r = new CommandRegistry();
    expect(() => r.registerAll([...workbenchCommands(), ...jobsCommands])).not.toThrow();
    expect(r.commandForHotkey('c', 'jobs')?.id).toBe('jobs.cancel');
    expect(r.commandForHotkey('c', 'job')?.id).toBe('jobs.cancel');
    expect(r.commandForHotkey('c', 'actions')).toBeUndefined();
    expect(r.commandForHotkey('x', 'job')).toBeUndefined();
  });

  it('JOB-102 JOB-087 cancel asks the exact question, sends the CSRF token with the GET, and refreshes every query', async () => {
    const s = jobsPaneState('', 1);
    s.pageJobs = [job(5, 'running')];
    setRows(s, [{ kind: 'job', key: 'job:5', level: 1, parentKey: null, jobId: 5, job: job(5, 'running'), expanded: false }]);
    s.activeKey = 'job:5';
    const token = vi.fn();
    server.use(
      http.get(`${API}/jobs/5/cancel.json`, ({ request }) => {
        token(request.headers.get('x-csrf-token'));
        return HttpResponse.json({ id: 5, status: 'cancelled', stopped_actions: 2 });
      }),
    );
    const r = registry('operator');
    await expect(r.execute('jobs.cancel')).resolves.toMatchObject({ status: 'cancelled' });
    expect(confirm).toHaveBeenCalledWith(CANCEL_CONFIRM, { confirmLabel: 'Cancel Job', cancelLabel: 'Keep Job' });
    expect(token).toHaveBeenCalledWith(expect.any(String));
    expect(invalidate).toHaveBeenCalledWith();
    confirm.mockResolvedValueOnce(false);
    await expect(r.execute('jobs.cancel', { id: 5 })).resolves.toEqual({ cancelled: false });
    expect(token).toHaveBeenCalledTimes(1);
  });

  it('JOB-104 a failed cancel or delete reports the server text, else "Error", and still refreshes', async () => {
    server.use(
      http.get(`${API}/jobs/7/cancel.json`, () => HttpResponse.json({ error: 'Job 7 is completed and can no longer be cancelled.' }, { status: 409 })),
      http.delete(`${API}/jobs/8`, () => new HttpResponse('', { status: 500 })),
    );
    const r = registry('admin');
    await expect(r.execute('jobs.cancel', { id: 7 })).rejects.toThrow('Job 7 is completed and can no longer be cancelled.');
    expect(invalidate).toHaveBeenCalled();
    await expect(r.execute('jobs.delete', { job_ids: [8] })).rejects.toThrow(/^Error$/);
  });

  it('JOB-058 cancel, delete and publish refresh every query, on success and on error', async () => {
    let ok = true;
    server.use(
      http.get(`${API}/jobs/:id/cancel.json`, ({ params }) => (ok ? HttpResponse.json({ id: Number(params.id), status: 'cancelled', stopped_actions: 0 }) : HttpResponse.json({ error: 'Not now.' }, { status: 409 }))),
      http.delete(`${API}/jobs/:id`, ({ params }) => (ok ? HttpResponse.json({ id: Number(params.id), deleted: true }) : HttpResponse.json({ error: 'Not now.' }, { status: 409 }))),
      http.post(`${API}/jobs/publish.json`, () => (ok ? HttpResponse.json({ published: [4], pipeline: 'Splunk HEC', latest_published_time: new Date().toISOString(), multisite_reporting: false }) : HttpResponse.json({ error: 'Not now.' }, { status: 409 }))),
    );
    const r = registry('admin');
    const calls: [string, Record<string, unknown>][] = [
      ['jobs.cancel', { id: 4 }],
      ['jobs.delete', { job_ids: [4] }],
      ['jobs.publish', { job_ids: [4], pipeline: 'Splunk HEC' }],
    ];
    for (const outcome of [true, false]) {
      ok = outcome;
      for (const [id, args] of calls) {
        invalidate.mockClear();
        const run = r.execute(id, args);
        await (outcome ? expect(run).resolves.toBeDefined() : expect(run).rejects.toThrow('Not now.'));
        // Every query, not some: invalidateQueries() without a filter.
        expect(invalidate, `${id} ${outcome ? 'succeeded' : 'failed'}`).toHaveBeenCalledWith();
      }
    }
  });

  it('JOB-103 JOB-088 JOB-096 delete confirms with the count and deletes each selected job with its own call', async () => {
    const s = jobsPaneState('', 1);
    s.filter.selected_jobs = [3, 4, 9];
    const deleted: string[] = [];
    server.use(http.delete(`${API}/jobs/:id`, ({ params }) => (deleted.push(String(params.id)), HttpResponse.json({ id: Number(params.id), deleted: true }))));
    const r = registry('approver');
    await expect(r.execute('jobs.delete')).resolves.toEqual({ deleted: [3, 4, 9] });
    expect(confirm).toHaveBeenCalledWith(deleteConfirmText(3), { confirmLabel: 'Delete 3 Job Results', cancelLabel: 'Keep Them' });
    expect(deleted).toEqual(['3', '4', '9']);
    expect(s.filter.selected_jobs).toEqual([]);
    expect(toastStore.toasts.map((t) => t.message)).toContain('3 job result(s) deleted.');
  });

  it('JOB-073 publish opens the publish modal from the workbench, and publishes directly with a pipeline', async () => {
    const body = vi.fn();
    server.use(http.post(`${API}/jobs/publish.json`, async ({ request }) => (body(await request.json()), HttpResponse.json({ published: [2], pipeline: 'Splunk HEC', latest_published_time: new Date().toISOString(), multisite_reporting: false }))));
    const r = registry('operator');
    await expect(r.execute('jobs.publish', { job_ids: [2], pipeline: 'Splunk HEC' })).resolves.toMatchObject({ published: [2] });
    expect(body).toHaveBeenCalledWith({ job_ids: [2], pipeline: 'Splunk HEC', multisite_reporting: false });
    expect(dialogs.publish).toBeNull();
  });

  it('jobs.wait in a script gives up polling at once when the script is stopped', async () => {
    const controller = new AbortController();
    let polls = 0;
    server.use(
      http.get(`${API}/jobs/:id.json`, ({ params }) => {
        polls++;
        // The first poll has answered "running": stop the script while the command waits for the next one.
        if (polls === 1) setTimeout(() => controller.abort(), 10);
        return HttpResponse.json({ id: Number(params.id), name: 'Long job', status: 'running', progress: 40, finished_at: null });
      }),
    );
    const result = await runScript(registry('viewer', null), parseScript('jobs.wait id=42 timeout_s=900\njobs.export job_ids=42'), { signal: controller.signal });
    expect(result.outcome).toBe('stopped');
    expect(result.steps.map((s) => [s.status, s.error])).toEqual([
      ['stopped', STOPPED_MESSAGE],
      ['skipped', undefined],
    ]);
    expect(result.steps[0]!.durationMs).toBeLessThan(1900);
    expect(polls).toBe(1);
  });

  it('jobs.export filter="status:completed" format=csv exports every completed job (the qualifier becomes a rule), and refuses another format', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/jobs/list_page_data.csv`, async ({ request }) => {
        bodies.push(await request.json());
        return new HttpResponse('Job,Status\r\nA,completed\r\nB,completed\r\n');
      }),
    );
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const result = await runScript(registry('viewer', null), parseScript('jobs.export filter="status:completed" format=csv\njobs.export filter="status:completed" format=xlsx'), { continueOnError: true });
    click.mockRestore();
    expect(downloads).toEqual([expect.stringMatching(/\.csv$/)]);
    expect(result.steps.map((s) => s.status)).toEqual(['ok', 'failed']);
    expect(result.steps[0]!.result).toMatch(/^\{"filename":"[^"]+\.csv","rows":2,/);
    expect(result.steps[1]!.error).toBe('Export Jobs to CSV: format must be csv (the only export format)');
    const rules = [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' }] }];
    expect(bodies).toEqual([expect.objectContaining({ all_events: 'all', props: { filter: 'adhoc', structuredFilter: JSON.stringify({ rules }) } })]);
  });

  it('JOB-073 JOB-074 JOB-075 a viewer has no cancel, delete, publish or events commands', async () => {
    const r = registry('viewer');
    const ids = r.visible().map((c) => c.id);
    for (const id of ['jobs.cancel', 'jobs.delete', 'jobs.publish', 'jobs.showEvents']) expect(ids).not.toContain(id);
    await expect(r.execute('jobs.cancel', { id: 1 })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(ids).toContain('jobs.export');
  });

  it('row commands move the focus and expand through the pane state', async () => {
    const s = jobsPaneState('', 1);
    setRows(s, [
      { kind: 'job', key: 'job:2', level: 1, parentKey: null, jobId: 2, job: job(2, 'completed'), expanded: false },
      { kind: 'job', key: 'job:1', level: 1, parentKey: null, jobId: 1, job: job(1, 'completed'), expanded: false },
    ]);
    const r = registry('viewer');
    await r.execute('jobs.nextRow');
    expect(s.activeKey).toBe('job:2');
    await r.execute('jobs.nextRow');
    await r.execute('jobs.nextRow');
    expect(s.activeKey).toBe('job:1');
    await r.execute('jobs.toggleSelect');
    expect(s.filter.selected_jobs).toEqual([1]);
    await expect(r.execute('jobs.cancel')).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it("JOB-018 Open the Job's Simulation asks the director for a job its pane has not loaded yet, and opens /simulation/{vid}", async () => {
    server.use(
      http.get(`${API}/jobs/77.json`, () =>
        HttpResponse.json({ id: 77, simulation: { id: 5, vid: 'S104-506', sim_type: 'sequence', name: 'Command and Control Channels' }, action: null, steps: [] }),
      ),
    );
    const openUrl = vi.fn();
    jobPaneState(77);
    const r = new CommandRegistry(() => ({
      ...emptyContext(),
      permissions: new Set(permissionsOf('viewer')),
      activePane: { kind: 'job', params: { id: '77' } },
      dock: { openUrl, focusNext: vi.fn(), moveActive: vi.fn(), closeActive: vi.fn(), resetLayout: vi.fn() },
    }));
    r.registerAll(jobsCommands);
    await r.execute('jobs.openSimulation', undefined, 'test');
    expect(openUrl).toHaveBeenCalledWith('/simulation/S104-506?sim_type=sequence');
  });
});
