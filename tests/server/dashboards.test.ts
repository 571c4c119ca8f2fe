import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Session, type TestServer } from './helpers';
import type { Dashboard, DashboardsAnswer } from '@/api/contracts/reports';
import { DEFAULT_PANEL_OPTIONS } from '@/api/contracts/reports';

let t: TestServer;
let operator: Session;
let viewer: Session;
let approver: Session;

const panel = (uid: string, kind = 'bar') => ({ uid, kind, title: `Panel ${uid}`, w: 2, h: 1, options: { ...DEFAULT_PANEL_OPTIONS } });

beforeAll(async () => {
  t = await startTestServer();
  [operator, viewer, approver] = [await t.signIn('operator'), await t.signIn('viewer'), await t.signIn('approver')];
});
afterAll(async () => {
  await t?.close();
});

describe('dashboards saved per user', () => {
  it('create, read, rename, change panels, duplicate, share and delete', async () => {
    const created = await t.call('POST', '/dashboards.json', { as: operator, body: { name: 'SOC weekly', panels: [panel('a'), panel('b', 'gauge')] } });
    expect(created.statusCode, created.body).toBe(201);
    const d = created.json<Dashboard>();
    expect(d).toMatchObject({ name: 'SOC weekly', editable: true, panel_count: 2, time_range: { rangeType: 'rel', relBackCount: 30, relUnit: 'day' } });

    const renamed = await t.call('PATCH', `/dashboards/${d.id}`, { as: operator, body: { name: 'SOC weekly review', panels: [panel('b', 'gauge'), panel('a')] } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Dashboard>().panels.map((p) => p.uid)).toEqual(['b', 'a']);

    const copy = await t.call('POST', `/dashboards/${d.id}/duplicate.json`, { as: operator, body: {} });
    expect(copy.statusCode).toBe(201);
    expect(copy.json<Dashboard>()).toMatchObject({ name: 'SOC weekly review (copy)', panel_count: 2 });

    // Not shared yet: other users do not see it.
    expect((await t.call('GET', `/dashboards/${d.id}`, { as: viewer })).statusCode).toBe(404);
    const viewerId = viewer.answer.user.id;
    const shared = await t.call('PUT', `/dashboards/${d.id}/shares.json`, { as: operator, body: { user_ids: [viewerId] } });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<Dashboard>().shared_with.map((u) => u.id)).toEqual([viewerId]);

    const list = (await t.call('GET', '/dashboards.json', { as: viewer })).json<DashboardsAnswer>();
    expect(list.dashboards.map((x) => [x.name, x.editable])).toEqual([['SOC weekly review', false]]);
    // A shared reader may not change it, but may duplicate it into their own.
    const refused = await t.call('PATCH', `/dashboards/${d.id}`, { as: viewer, body: { name: 'mine' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toMatch(/duplicate it/);
    const own = await t.call('POST', `/dashboards/${d.id}/duplicate.json`, { as: viewer, body: { name: 'My copy' } });
    expect(own.json<Dashboard>()).toMatchObject({ name: 'My copy', editable: true });
    expect((await t.call('GET', `/dashboards/${d.id}`, { as: approver })).statusCode).toBe(404);

    expect((await t.call('DELETE', `/dashboards/${d.id}`, { as: viewer })).statusCode).toBe(403);
    expect((await t.call('DELETE', `/dashboards/${d.id}`, { as: operator })).statusCode).toBe(200);
    expect((await t.call('GET', `/dashboards/${d.id}`, { as: operator })).statusCode).toBe(404);
  });

  it('MON-051 an absolute range by whole days keeps absDateAndTime', async () => {
    const time_range = { rangeType: 'abs', relBackCount: 30, relUnit: 'day', start: '2026-01-05T00:00:00.000Z', end: '2026-01-09T23:59:59.999Z', absDateAndTime: false };
    const created = await t.call('POST', '/dashboards.json', { as: operator, body: { name: 'By days', time_range } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Dashboard>().id;
    expect((await t.call('GET', `/dashboards/${id}`, { as: operator })).json<Dashboard>().time_range).toEqual(time_range);
    const withTimes = await t.call('PATCH', `/dashboards/${id}`, { as: operator, body: { time_range: { ...time_range, absDateAndTime: true } } });
    expect(withTimes.json<Dashboard>().time_range.absDateAndTime).toBe(true);
  });

  it('MON-051 a range keeps its days of the week; days outside Su..S are refused', async () => {
    const time_range = { rangeType: 'rel', relBackCount: 14, relUnit: 'day', start: null, end: null, repeat_week_days: 'M,T,W,Th,F' };
    const created = await t.call('POST', '/dashboards.json', { as: operator, body: { name: 'Working days', time_range } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Dashboard>().id;
    expect((await t.call('GET', `/dashboards/${id}`, { as: operator })).json<Dashboard>().time_range).toEqual(time_range);
    const bad = await t.call('PATCH', `/dashboards/${id}`, { as: operator, body: { time_range: { ...time_range, repeat_week_days: 'M,Funday' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/Weekdays must be among Su, M, T, W, Th, F, S/);
  });

  it('refuses bad input with 400 and a message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: '' }, /Name is required/],
      [{ name: 'x', panels: [panel('a'), panel('a')] }, /Panel uids must be unique/],
      [{ name: 'x', panels: [{ ...panel('a'), w: 5 }] }, /w must be 1 to 4/],
      [{ name: 'x', panels: [{ ...panel('a'), kind: 'sparkline' }] }, /kind must be one of/],
      [{ name: 'x', panels: [{ ...panel('a'), options: { ...DEFAULT_PANEL_OPTIONS, blockThreshold: 140 } }] }, /blockThreshold must be between 0 and 100/],
      [{ name: 'x', time_range: { rangeType: 'rel', relBackCount: -1, relUnit: 'day', start: null, end: null } }, /relBackCount must not be negative/],
      [{ name: 'x', time_range: { rangeType: 'rel', relBackCount: 1, relUnit: 'fortnight', start: null, end: null } }, /relUnit must be one of/],
      [{ name: 'x', time_range: { rangeType: 'abs', relBackCount: 30, relUnit: 'day', start: null, end: null, absDateAndTime: 'sometimes' } }, /absDateAndTime must be true or false/],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call('POST', '/dashboards.json', { as: operator, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(msg);
    }
    expect((await t.call('GET', '/dashboards/abc', { as: operator })).statusCode).toBe(400);
    expect((await t.call('PATCH', '/dashboards/999999', { as: operator, body: { name: 'n' } })).statusCode).toBe(404);
    expect((await t.call('PUT', '/dashboards/999999/shares.json', { as: operator, body: {} })).statusCode).toBe(400);
  });

  it('checks CSRF and sign-in', async () => {
    expect((await t.call('POST', '/dashboards.json', { as: operator, csrf: false, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.call('GET', '/dashboards.json')).statusCode).toBe(401);
  });
});
