/**
 * Shared scripts (issue 24): sharing needs `scripts.share` (operators, approvers, administrators; not
 * viewers), scripts carry their author, and a run record is written only by its runner: opened by the
 * user who runs the script and finished by that user alone (403 for anyone else, 409 once finished).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '@/api/contracts/permissions';
import type { SavedScript, ScriptRunRecord } from '@/api/contracts/scripts';
import { EMAILS, startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
let viewer: Session;
let operator: Session;
let approver: Session;
let admin: Session;
beforeAll(async () => {
  t = await startTestServer();
  [viewer, operator, approver, admin] = await Promise.all([t.signIn('viewer'), t.signIn('operator'), t.signIn('approver'), t.signIn('admin')]);
});
afterAll(async () => {
  await t?.close();
});

type ErrorAnswer = { error: string };
const save = (as: Session, body: Record<string, unknown>) => t.call('POST', '/scripts.json', { as, body });
const step = { index: 0, line: 1, commandId: 'script.echo', source: 'echo text="hi"', status: 'ok', durationMs: 1 };

describe('sharing needs scripts.share', () => {
  it('is granted to operators, approvers and administrators, not to viewers', () => {
    expect(permissionsOf('viewer')).not.toContain('scripts.share');
    for (const role of ['operator', 'approver', 'admin'] as const) expect(permissionsOf(role)).toContain('scripts.share');
  });

  it('a viewer cannot save a shared script, nor share one later, but keeps private scripts', async () => {
    const shared = await save(viewer, { name: 'Make me admin', body: 'users.setRole id=4 role=admin', shared: true });
    expect(shared.statusCode).toBe(403);
    expect(shared.json<ErrorAnswer>().error).toBe('Sharing a script needs the scripts.share permission (operators, approvers and administrators); save it unshared.');
    const mine = await save(viewer, { name: 'Private notes', body: 'echo text="mine"' });
    expect(mine.statusCode).toBe(201);
    const id = mine.json<{ data: SavedScript }>().data.id;
    const later = await t.call('PUT', `/scripts/${id}.json`, { as: viewer, body: { name: 'Private notes', body: 'users.setRole id=4 role=admin', shared: true } });
    expect(later.statusCode).toBe(403);
    const others = (await t.call('GET', '/scripts.json', { as: operator })).json<{ data: SavedScript[] }>().data;
    expect(others.some((s) => s.id === id)).toBe(false);
  });

  it('an operator shares a script; everyone sees it with its author', async () => {
    const res = await save(operator, { name: 'Shared check', body: 'echo text="shared"', shared: true });
    expect(res.statusCode).toBe(201);
    const seen = (await t.call('GET', '/scripts.json', { as: viewer })).json<{ data: SavedScript[] }>().data.find((s) => s.name === 'Shared check');
    expect(seen).toMatchObject({ shared: true, owner_email: EMAILS.operator, owner_name: 'Oscar Operator' });
  });
});

describe('run records only by their runner', () => {
  let scriptId: number;
  beforeAll(async () => {
    scriptId = (await save(approver, { name: 'Runs of a shared script', body: 'echo text="x"', shared: true })).json<{ data: SavedScript }>().data.id;
  });

  it('the runner opens a run, nobody else may finish it (403), the runner finishes it once (409 after)', async () => {
    const opened = await t.call('POST', `/scripts/${scriptId}/runs.json`, { as: viewer, body: { source: 'workbench', started_at: new Date().toISOString() } });
    expect(opened.statusCode).toBe(201);
    const runId = opened.json<{ data: { id: number } }>().data.id;
    const running = (await t.call('GET', `/scripts/${scriptId}/runs.json`, { as: approver })).json<{ data: ScriptRunRecord[] }>().data.find((r) => r.id === runId);
    expect(running).toMatchObject({ user_email: EMAILS.viewer, outcome: 'running', finished_at: null });

    for (const other of [approver, operator, admin]) {
      const res = await t.call('PUT', `/scripts/${scriptId}/runs/${runId}.json`, { as: other, body: { outcome: 'failed', steps: [] } });
      expect(res.statusCode).toBe(403);
      expect(res.json<ErrorAnswer>().error).toBe('Only the user who ran a script records that run.');
    }
    const done = await t.call('PUT', `/scripts/${scriptId}/runs/${runId}.json`, { as: viewer, body: { outcome: 'ok', steps: [step] } });
    expect(done.statusCode).toBe(200);
    const again = await t.call('PUT', `/scripts/${scriptId}/runs/${runId}.json`, { as: viewer, body: { outcome: 'failed', steps: [] } });
    expect(again.statusCode).toBe(409);
    const run = (await t.call('GET', `/scripts/${scriptId}/runs.json`, { as: viewer })).json<{ data: ScriptRunRecord[] }>().data.find((r) => r.id === runId);
    expect(run).toMatchObject({ user_email: EMAILS.viewer, outcome: 'ok', steps_total: 1, steps_failed: 0 });
    expect(run?.finished_at).not.toBeNull();
  });

  it('a record names its runner only from the session: a body naming a user is refused', async () => {
    const res = await t.call('POST', `/scripts/${scriptId}/runs.json`, { as: operator, body: { source: 'workbench', started_at: new Date().toISOString(), user_id: 1 } });
    expect(res.statusCode).toBe(400);
  });

  it('nobody records runs of a private script of someone else (404), nor finishes a run of another script', async () => {
    const priv = (await save(approver, { name: 'Approver private', body: 'echo text="p"' })).json<{ data: SavedScript }>().data.id;
    const res = await t.call('POST', `/scripts/${priv}/runs.json`, { as: operator, body: { source: 'workbench', started_at: new Date().toISOString() } });
    expect(res.statusCode).toBe(404);
    const runId = (await t.call('POST', `/scripts/${scriptId}/runs.json`, { as: operator, body: { source: 'terminal', started_at: new Date().toISOString() } })).json<{ data: { id: number } }>().data.id;
    const wrongScript = await t.call('PUT', `/scripts/${priv}/runs/${runId}.json`, { as: approver, body: { outcome: 'ok', steps: [] } });
    expect(wrongScript.statusCode).toBe(404);
  });
});
