import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import type { SearchAnswer } from '@/api/contracts/search';
import { startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
let operator: Session;
let approver: Session;

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.db, { jobs: 40 });
  [operator, approver] = await Promise.all([t.signIn('operator'), t.signIn('approver')]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const find = async (as: Session, q: string, limit?: number, kind?: string) => {
  const res = await t.call('GET', `/search.json?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}${kind ? `&kind=${kind}` : ''}`, { as });
  expect(res.statusCode).toBe(200);
  return res.json<SearchAnswer>().results;
};

describe('GET /search.json (quick open)', () => {
  it('finds an Action by its VID first, with the URL that opens it', async () => {
    const [a] = await t.db.query<{ id: number; vid: string; name: string }>('select id, vid, name from actions where not decommissioned order by id limit 1');
    const results = await find(operator, a!.vid.toLowerCase());
    expect(results[0]).toMatchObject({ kind: 'action', id: a!.id, label: a!.name, url: `/manage_sims/action/${a!.vid}`, match: 'exact' });
  });

  it('finds a job by its id, an actor and a simulation by name, exact matches before substrings', async () => {
    const [job] = await t.db.query<{ id: number; name: string }>('select id, name from jobs order by id desc limit 1');
    expect((await find(operator, String(job!.id)))[0]).toMatchObject({ kind: 'job', id: job!.id, label: `Job ${job!.id}`, url: `/jobs/${job!.id}` });
    expect((await find(operator, `job ${job!.id}`))[0]).toMatchObject({ kind: 'job', id: job!.id });
    const [actor] = await t.db.query<{ id: number; name: string }>('select id, name from nodes order by id limit 1');
    expect((await find(operator, actor!.name)).find((r) => r.kind === 'actor')).toMatchObject({ id: actor!.id, url: `/topology/nodes/${actor!.id}/edit` });
    const [sim] = await t.db.query<{ id: number; vid: string; name: string; simulation_type: string }>('select id, vid, name, simulation_type from simulations order by id limit 1');
    const simResults = await find(operator, sim!.name);
    expect(simResults[0]).toMatchObject({ kind: 'simulation', id: sim!.id, url: `/simulation/${sim!.vid}?sim_type=${sim!.simulation_type}` });
    // A middle substring ranks after exact and prefix matches.
    const ranks = simResults.map((r) => r.label.toLowerCase() === sim!.name.toLowerCase());
    expect(ranks.indexOf(false) === -1 || ranks.lastIndexOf(true) < ranks.indexOf(false)).toBe(true);
  });

  it("lists only the user's own saved filters, own or shared scripts, and dashboards shared with them", async () => {
    const opId = operator.answer.user.id;
    const apId = approver.answer.user.id;
    await t.db.query(`insert into saved_filters (user_id, target, name) values ($1, 'jobs', 'Zebra failures'), ($2, 'jobs', 'Zebra approvals')`, [opId, apId]);
    await t.db.query(`insert into scripts (user_id, name, shared) values ($1, 'Zebra private', false), ($1, 'Zebra shared', true)`, [apId]);
    await t.db.query(`insert into dashboards (user_id, name, time_range) values ($1, 'Zebra board', '{}'), ($1, 'Zebra secret board', '{}')`, [apId]);
    await t.db.query(`insert into dashboard_shares (dashboard_id, user_id) select id, $1 from dashboards where name = 'Zebra board'`, [opId]);
    const mine = await find(operator, 'zebra');
    expect(mine.map((r) => `${r.kind}:${r.label}`).sort()).toEqual(['dashboard:Zebra board', 'filter:Zebra failures', 'script:Zebra shared']);
    const theirs = await find(approver, 'zebra');
    expect(theirs.map((r) => `${r.kind}:${r.label}`).sort()).toEqual(['dashboard:Zebra board', 'dashboard:Zebra secret board', 'filter:Zebra approvals', 'script:Zebra private', 'script:Zebra shared']);
    expect(theirs.find((r) => r.kind === 'script' && r.label === 'Zebra private')!.url).toMatch(/^\/scripts\?id=\d+$/);
  });

  it('keeps to one kind with kind=, where a whole number is also an id', async () => {
    const [a] = await t.db.query<{ id: number; vid: string }>('select id, vid from actions where not decommissioned order by id desc limit 1');
    const byId = await find(operator, String(a!.id), undefined, 'action');
    expect(byId[0]).toMatchObject({ kind: 'action', id: a!.id, match: 'exact' });
    expect(byId.every((r) => r.kind === 'action')).toBe(true);
    // With a kind, an empty q lists the first of that kind (a pick list before typing); jobs latest first.
    expect((await find(operator, '', 5, 'actor')).length).toBeGreaterThan(0);
    const [latest] = await t.db.query<{ id: number }>('select max(id) as id from jobs');
    expect((await find(operator, '', 5, 'job'))[0]).toMatchObject({ kind: 'job', id: latest!.id });
    const [sim] = await t.db.query<{ id: number; simulation_type: string }>('select id, simulation_type from simulations order by id limit 1');
    expect((await find(operator, String(sim!.id), undefined, 'simulation'))[0]).toMatchObject({ kind: 'simulation', id: sim!.id, subtype: sim!.simulation_type, match: 'exact' });
  });

  it('finds Actions in the in-memory index exactly as the SQL definition ranks them, and follows writes', async () => {
    // Names made to meet every rank: whole name, start of the name, start of a word, elsewhere, twins, case, decommissioned.
    const names = ['Zq Beacon', 'zq beacon', 'Zq Beacon Long', 'Alpha zq beacon', 'Alphazq', 'ZQ', 'zqzq zq', 'Beta (zq)', 'Omega Zq-Beacon', 'mid.zqb', 'Zq Beacon'];
    for (const [i, name] of names.entries()) await t.db.query(`insert into actions (vid, name, action_type, decommissioned) values ($1, $2, 'sleep', $3)`, [`A099-${String(i).padStart(3, '0')}`, name, i === 10]);
    // The definition (the SQL the search call ran before the index): rank, then lowercased name in code-point order, then id.
    const reference = async (q: string, limit: number, id = 0) => {
      const e = q.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await t.db.query<{ id: number; rank: number }>(
        `select id, case when vid = upper($1) or id = $6 then 0 when lower(name) = $1 then 0 when lower(name) like $2 escape '\\' or lower(name) like $4 escape '\\' then 1 else 2 end as rank
           from actions where not decommissioned and (vid = upper($1) or id = $6 or lower(name) like $3 escape '\\')
          order by rank, lower(name) collate "C", id limit $5`,
        [q, `${e}%`, `%${e}%`, `% ${e}%`, limit, id],
      );
      return rows.map((r) => `${r.id}:${['exact', 'prefix', 'substring'][r.rank]}`);
    };
    const got = async (q: string, limit: number) => (await find(operator, q, limit, 'action')).map((r) => `${r.id}:${r.match}`);
    // '' (a pick list before typing: every name is a prefix match); two characters and less walk the joined names, longer ones start from trigram candidates.
    const queries = ['', 'zq', 'zq beacon', 'ZQ', 'beacon', 'zq-', 'q b', 'zqz', 'a099-003', 'eta (', 'nothing here', 'zq%', 'm', 'dns'];
    for (const q of queries) for (const limit of [1, 3, 50]) expect(await got(q, limit), `${q} (limit ${limit})`).toEqual(await reference(q.toLowerCase(), limit));
    const [{ id } = { id: 0 }] = await t.db.query<{ id: number }>(`select id from actions where name = 'Alphazq'`);
    expect(await got(String(id), 5)).toEqual(await reference(String(id), 5, id));
    // Renamed and decommissioned Actions are found as they are now (the index follows the change log).
    await t.db.query(`update actions set name = 'Zq Renamed' where name = 'Alphazq'`);
    await t.db.query(`update actions set decommissioned = true where name = 'ZQ'`);
    for (const q of ['zq', 'renamed', 'alphazq']) expect(await got(q, 50), q).toEqual(await reference(q, 50));
    expect((await find(operator, 'zq renamed'))[0]).toMatchObject({ kind: 'action', id, label: 'Zq Renamed', match: 'exact' });
  });

  it('finds a new, renamed or deleted Action at once, without joining every name again', async () => {
    await find(operator, 'warm');
    // Joining the names again reads the index's name order; a write must not make the next search do that.
    const sorted = vi.spyOn(t.app.library.actions, 'sorted');
    try {
      await t.db.query(`insert into actions (vid, name, action_type) values ('A099-901', 'Kestrel Probe', 'sleep'), ('A099-902', 'Old Kestrel', 'sleep')`);
      expect((await find(operator, 'kestrel', 10, 'action')).map((r) => `${r.label}:${r.match}`)).toEqual(['Kestrel Probe:prefix', 'Old Kestrel:prefix']);
      expect((await find(operator, 'kes', 10)).map((r) => r.label)).toEqual(['Kestrel Probe', 'Old Kestrel']);
      expect((await find(operator, 'a099-901'))[0]).toMatchObject({ kind: 'action', label: 'Kestrel Probe', match: 'exact' });
      await t.db.query(`update actions set name = 'Harrier Probe' where vid = 'A099-901'`);
      expect((await find(operator, 'kestrel', 10)).map((r) => r.label)).toEqual(['Old Kestrel']);
      expect((await find(operator, 'harrier probe', 10))[0]).toMatchObject({ kind: 'action', label: 'Harrier Probe', match: 'exact' });
      expect((await find(operator, 'robe', 10)).filter((r) => r.label === 'Harrier Probe')).toHaveLength(1);
      await t.db.query(`delete from actions where vid = 'A099-902'`);
      expect(await find(operator, 'kestrel', 10)).toEqual([]);
      expect(await find(operator, 'a099-902', 10)).toEqual([]);
      // An Action renamed twice is found once, by its last name.
      await t.db.query(`update actions set name = 'Merlin Probe' where vid = 'A099-901'`);
      expect((await find(operator, 'probe', 50)).filter((r) => r.kind === 'action' && r.id !== 0).map((r) => r.label).filter((l) => /harrier|merlin/i.test(l))).toEqual(['Merlin Probe']);
      expect(sorted).not.toHaveBeenCalled();
    } finally {
      sorted.mockRestore();
    }
  });

  it('keeps the small kinds in memory: a renamed actor is found at once, a heartbeat logs no change', async () => {
    const [actor] = await t.db.query<{ id: number; name: string }>('select id, name from nodes order by id limit 1');
    expect((await find(operator, actor!.name, 5, 'actor'))[0]).toMatchObject({ id: actor!.id, match: 'exact' });
    const logged = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from library_changes where kind = 'search'`))[0]!.n;
    const before = await logged();
    await t.db.query('update nodes set last_heartbeat_at = now() where id = $1', [actor!.id]);
    expect(await logged()).toBe(before);
    await t.db.query(`update nodes set name = 'Osprey Relay' where id = $1`, [actor!.id]);
    expect(await logged()).toBe(before + 1);
    expect((await find(operator, 'osprey', 5))[0]).toMatchObject({ kind: 'actor', id: actor!.id, label: 'Osprey Relay', match: 'prefix', url: `/topology/nodes/${actor!.id}/edit` });
    expect((await find(operator, actor!.name.toLowerCase(), 5, 'actor')).find((r) => r.id === actor!.id)).toBeUndefined();
    await t.db.query('update nodes set name = $2 where id = $1', [actor!.id, actor!.name]);
  });

  it("issue 21 finds an actor by the friendly name the Actors pane shows, and shows its live status (offline 20 s after its last heartbeat), as the Actors pane does", async () => {
    const [actor] = await t.db.query<{ id: number; name: string }>('select id, name from nodes order by id limit 1');
    const actorHit = async (q: string) => (await find(operator, q, 10, 'actor')).find((r) => r.id === actor!.id);
    await t.db.query(`update nodes set friendly_name = 'Heron finance desk', sim_address = '10.9.8.7' where id = $1`, [actor!.id]);
    expect(await actorHit('heron fin')).toMatchObject({ label: actor!.name, match: 'prefix' });
    expect((await actorHit('heron finance desk'))!.match).toBe('exact');
    expect((await actorHit('finance desk'))!.match).toBe('prefix');
    // Stored online with an hour-old heartbeat (the engine's sweep has not written it yet): offline, as the Actors pane says.
    await t.db.query(`update nodes set status = 'online', last_heartbeat_at = now() - interval '1 hour' where id = $1`, [actor!.id]);
    expect((await actorHit('heron'))!.detail).toBe('Heron finance desk · 10.9.8.7 · offline');
    // A fresh heartbeat: online. Heartbeats log no change, yet one that arrives later keeps it online past the offline delay.
    await t.db.query(`update nodes set status = 'offline', last_heartbeat_at = now() where id = $1`, [actor!.id]);
    await t.db.query(`update nodes set status = 'online', last_heartbeat_at = now() where id = $1`, [actor!.id]);
    expect((await actorHit('heron'))!.detail).toBe('Heron finance desk · 10.9.8.7 · online');
    const later = Date.now() + 25_000;
    const base = performance.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    const perf = vi.spyOn(performance, 'now').mockReturnValue(base + 25_000);
    try {
      await t.db.query('update nodes set last_heartbeat_at = $2 where id = $1', [actor!.id, new Date(later - 2_000)]);
      expect((await actorHit('heron'))!.detail).toBe('Heron finance desk · 10.9.8.7 · online');
      // None since: offline once the delay has passed, though the stored status still says online.
      clock.mockReturnValue(later + 21_000);
      perf.mockReturnValue(base + 50_000);
      expect((await actorHit('heron'))!.detail).toBe('Heron finance desk · 10.9.8.7 · offline');
    } finally {
      clock.mockRestore();
      perf.mockRestore();
    }
    await t.db.query(`update nodes set friendly_name = '', status = 'offline' where id = $1`, [actor!.id]);
  });

  it("issue 21 a keystroke does not wait for the change log's periodic poll (other directors' writes), but waits for this director's writes", async () => {
    const library = t.app.library;
    const feed = (library as unknown as { feed: { poll(): Promise<unknown> } }).feed;
    await find(operator, 'dns');
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const realPoll = feed.poll.bind(feed);
    const poll = vi.spyOn(feed, 'poll').mockImplementation(async () => {
      await held;
      return realPoll();
    });
    try {
      // The poll is due (more than 200 ms since the last) and held: quick open answers from the index meanwhile.
      await new Promise((r) => setTimeout(r, 250));
      const answer = await Promise.race([find(operator, 'dns'), new Promise<'waited'>((r) => setTimeout(() => r('waited'), 5_000))]);
      expect(answer).not.toBe('waited');
      expect(poll).toHaveBeenCalled();
    } finally {
      release();
      poll.mockRestore();
    }
    // A write through this director is waited for: the renamed actor is found by its new name at once.
    const [actor] = await t.db.query<{ id: number; name: string }>('select id, name from nodes order by id limit 1');
    await t.db.query(`update nodes set name = 'Kestrel Gate' where id = $1`, [actor!.id]);
    expect((await find(operator, 'kestrel', 5))[0]).toMatchObject({ kind: 'actor', id: actor!.id });
    await t.db.query('update nodes set name = $2 where id = $1', [actor!.id, actor!.name]);
  });

  it('treats LIKE wildcards as text and keeps to the limit', async () => {
    expect(await find(operator, '%')).toEqual([]);
    expect(await find(operator, '_')).toEqual([]);
    expect((await find(operator, 'a', 3)).length).toBe(3);
  });

  it('answers 401 signed out and 400 with a clear message on bad input', async () => {
    expect((await t.call('GET', '/search.json?q=dns')).statusCode).toBe(401);
    const cases: [string, RegExp][] = [
      ['/search.json', /q is required/],
      ['/search.json?q=%20%20', /q is required/],
      [`/search.json?q=${'x'.repeat(101)}`, /at most 100 characters/],
      ['/search.json?q=dns&limit=0', /limit must be at least 1/],
      ['/search.json?q=dns&limit=500', /limit must be at most 50/],
      ['/search.json?q=dns&limit=abc', /limit must be a whole number/],
      ['/search.json?q=dns&type=job', /Unknown parameter: type/],
      ['/search.json?q=dns&kind=user', /kind must be one of action, simulation/],
    ];
    for (const [url, message] of cases) {
      const res = await t.call('GET', url, { as: operator });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: string }>().error, url).toMatch(message);
    }
  });
});
