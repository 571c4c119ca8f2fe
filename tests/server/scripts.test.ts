import { describe, expect, it } from 'vitest';
import type { SavedScript, ScriptRunRecord } from '@/api/contracts/scripts';
import { useTestServer, type Session } from './helpers';

const t = useTestServer();
const [operator, approver, admin] = [t.session('operator'), t.session('approver'), t.session('admin')];

type ErrorAnswer = { error: string; errors?: Record<string, string[]> };
const save = (as: Session, body: Record<string, unknown>) => t.call('POST', '/scripts.json', { as, body });

describe('saved scripts', () => {
  it('saves a script for its user, lists it, and keeps it private unless shared', async () => {
    const res = await save(operator, { name: 'Cancel stale jobs', body: 'jobs.cancel id=1\n' });
    expect(res.statusCode).toBe(201);
    const script = res.json<{ data: SavedScript }>().data;
    expect(script).toMatchObject({ name: 'Cancel stale jobs', body: 'jobs.cancel id=1\n', shared: false, owner_email: 'operator@example.com' });
    const mine = (await t.call('GET', '/scripts.json', { as: operator })).json<{ data: SavedScript[] }>().data;
    expect(mine.map((s) => s.name)).toContain('Cancel stale jobs');
    const theirs = (await t.call('GET', '/scripts.json', { as: approver })).json<{ data: SavedScript[] }>().data;
    expect(theirs.map((s) => s.name)).not.toContain('Cancel stale jobs');
    expect((await t.call('GET', `/scripts/${script.id}.json`, { as: approver })).statusCode).toBe(404);
  });

  it('shares a script with everyone, who may run it but not change it', async () => {
    const script = (await save(operator, { name: 'Weekly export', body: 'script.echo text=hi', shared: true })).json<{ data: SavedScript }>().data;
    const theirs = (await t.call('GET', '/scripts.json', { as: approver })).json<{ data: SavedScript[] }>().data;
    expect(theirs.find((s) => s.id === script.id)?.owner_email).toBe('operator@example.com');
    const change = await t.call('PUT', `/scripts/${script.id}.json`, { as: approver, body: { name: 'Mine now', body: '' } });
    expect(change.statusCode).toBe(403);
    expect(change.json<ErrorAnswer>().error).toBe('Only the owner of a script (or an administrator) may change it.');
    expect((await t.call('DELETE', `/scripts/${script.id}.json`, { as: approver })).statusCode).toBe(403);
    expect((await t.call('PUT', `/scripts/${script.id}.json`, { as: admin, body: { name: 'Weekly export', body: 'script.echo text=bye', shared: true } })).statusCode).toBe(200);
  });

  it('refuses a second script of the same name for one user with 409', async () => {
    await save(operator, { name: 'Twice', body: '' });
    const res = await save(operator, { name: 'Twice', body: '' });
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorAnswer>().errors).toEqual({ name: ['is already taken'] });
    expect((await save(approver, { name: 'Twice', body: '' })).statusCode).toBe(201);
  });

  it.each([
    [{ body: 'x' }, 'Name is required'],
    [{ name: 'n' }, 'Body is required'],
    [{ name: 'n', body: 'x', extra: 1 }, 'field has unspecified keys'],
    [{ name: ['n'], body: 'x' }, 'name'],
    [{ name: 'n', body: 'x'.repeat(100_001) }, 'A script may be at most 100000 characters'],
  ])('refuses %j with 400 and a message', async (body, fragment) => {
    const res = await save(operator, body);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json<ErrorAnswer>())).toContain(fragment);
  });

  it('deletes a script for its owner, and answers 404 then', async () => {
    const script = (await save(operator, { name: 'Short lived', body: '' })).json<{ data: SavedScript }>().data;
    expect((await t.call('DELETE', `/scripts/${script.id}.json`, { as: operator })).statusCode).toBe(200);
    expect((await t.call('GET', `/scripts/${script.id}.json`, { as: operator })).statusCode).toBe(404);
    expect((await t.call('GET', '/scripts/abc.json', { as: operator })).statusCode).toBe(400);
  });

  it('needs a session and the CSRF token', async () => {
    expect((await t.call('GET', '/scripts.json')).statusCode).toBe(401);
    expect((await t.call('POST', '/scripts.json', { as: operator, body: { name: 'x', body: '' }, csrf: false })).statusCode).toBe(403);
  });
});

describe('run history', () => {
  it('records who ran a script, when, and the outcome, newest first', async () => {
    const script = (await save(operator, { name: 'History', body: 'script.echo text=a', shared: true })).json<{ data: SavedScript }>().data;
    const step = { index: 0, line: 1, commandId: 'script.echo', source: 'script.echo text=a', status: 'ok', durationMs: 1.5, result: 'a' };
    const first = await t.call('POST', `/scripts/${script.id}/runs.json`, { as: operator, body: { source: 'workbench', outcome: 'ok', started_at: new Date().toISOString(), steps: [step] } });
    expect(first.statusCode).toBe(201);
    const second = await t.call('POST', `/scripts/${script.id}/runs.json`, {
      as: approver,
      body: { source: 'terminal', outcome: 'failed', started_at: new Date().toISOString(), steps: [{ ...step, status: 'failed', error: 'boom' }] },
    });
    expect(second.statusCode).toBe(201);
    const runs = (await t.call('GET', `/scripts/${script.id}/runs.json`, { as: operator })).json<{ data: ScriptRunRecord[] }>().data;
    expect(runs.map((r) => [r.user_email, r.source, r.outcome, r.steps_total, r.steps_failed])).toEqual([
      ['approver@example.com', 'terminal', 'failed', 1, 1],
      ['operator@example.com', 'workbench', 'ok', 1, 0],
    ]);
  });

  it('records a stopped run whose waiting step shows as stopped', async () => {
    const script = (await save(operator, { name: 'Stopped run', body: 'script.wait ms=60000' })).json<{ data: SavedScript }>().data;
    const step = { index: 0, line: 1, commandId: 'script.wait', source: 'script.wait ms=60000', status: 'stopped', durationMs: 812, error: 'Stopped before this step finished.' };
    const res = await t.call('POST', `/scripts/${script.id}/runs.json`, { as: operator, body: { source: 'workbench', outcome: 'stopped', started_at: new Date().toISOString(), steps: [step] } });
    expect(res.statusCode).toBe(201);
    const runs = (await t.call('GET', `/scripts/${script.id}/runs.json`, { as: operator })).json<{ data: ScriptRunRecord[] }>().data;
    expect(runs.map((r) => [r.outcome, r.steps_total, r.steps_failed])).toEqual([['stopped', 1, 0]]);
  });

  it('refuses a malformed run record with 400', async () => {
    const script = (await save(operator, { name: 'Bad runs', body: '' })).json<{ data: SavedScript }>().data;
    const bad = await t.call('POST', `/scripts/${script.id}/runs.json`, { as: operator, body: { source: 'moon', outcome: 'ok', started_at: 'yesterday', steps: [] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorAnswer>().error).toMatch(/source must be workbench or terminal/);
    const missing = await t.call('POST', '/scripts/999999/runs.json', { as: operator, body: { source: 'workbench', outcome: 'ok', started_at: new Date().toISOString(), steps: [] } });
    expect(missing.statusCode).toBe(404);
  });
});
