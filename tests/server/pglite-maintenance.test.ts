/**
 * PostgreSQL's autovacuum for a PGlite director (server/db/pglite-maintenance.ts): the tables past
 * autovacuum's own thresholds are vacuumed and analyzed, and the director's named statements are then
 * planned for the tables as they are, not as they were when it first ran them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../../server/db/index';
import { PgliteMaintenance, startPgliteMaintenance } from '../../server/db/pglite-maintenance';

let db: PgliteDb;
beforeAll(async () => {
  db = await openPglite(undefined);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

const stats = async (table: string) =>
  (
    await db.query<{ dead: number; analyzed: boolean; vacuumed: boolean; rows: number }>(
      `select s.n_dead_tup::int as dead, s.last_analyze is not null as analyzed, s.last_vacuum is not null as vacuumed, c.reltuples::int as rows
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
      [table],
    )
  )[0];

it('a table past the thresholds is vacuumed and analyzed once; one changed by less than 10% is left alone, by more is analyzed', async () => {
  await db.exec('create table churned (id int primary key, v int)');
  await db.exec('insert into churned select g, g from generate_series(1, 5000) g');
  await db.exec('update churned set v = v + 1 where id <= 2000');
  const maintenance = new PgliteMaintenance(db);
  expect(await maintenance.run()).toContainEqual({ table: 'churned', vacuum: true, analyze: true });
  expect(await stats('churned')).toEqual({ dead: 0, analyzed: true, vacuumed: true, rows: 5000 });
  expect((await maintenance.run()).map((t) => t.table)).not.toContain('churned');

  // 400 rows changed of 5,000: under 50 + 10% for an analyze, under 50 + 20% dead for a vacuum.
  await db.exec('update churned set v = v + 1 where id <= 400');
  expect((await maintenance.run()).map((t) => t.table)).not.toContain('churned');
  // 300 more: 700 changed since the analyze, past 550; 700 dead, still under 1,050.
  await db.exec('update churned set v = v + 1 where id > 4700');
  expect(await maintenance.run()).toContainEqual({ table: 'churned', vacuum: false, analyze: true });
});

it('a named statement planned while its table was small is planned again for the grown table once it is analyzed', async () => {
  await db.exec('create table grown (id serial primary key, k int not null, v text)');
  await db.exec('create index grown_k_idx on grown (k)');
  await db.exec(`insert into grown (k, v) select g, 'x' from generate_series(1, 20) g`);
  // As the engine's group commits join their rows (server/actors/service.ts).
  const probe = 'select g.v from grown g join jsonb_to_recordset($1::jsonb) as x(k int) on g.k = x.k';
  // Past PostgreSQL's five custom plans: the plan cache keeps one generic plan for the statement.
  for (let i = 0; i < 8; i++) await db.query(probe, [JSON.stringify([{ k: i }])], { name: 'grown-probe' });
  const plan = async () => (await db.query<{ 'QUERY PLAN': string }>(`explain execute "grown-probe"('[{"k": 7}]')`)).map((r) => r['QUERY PLAN']).join('\n');
  expect(await plan()).toContain('Seq Scan on grown');
  await db.exec(`insert into grown (k, v) select g, 'x' from generate_series(21, 50000) g`);
  // Nothing told PostgreSQL the table grew: the cached plan still reads all of it for each call.
  expect(await plan()).toContain('Seq Scan on grown');
  expect(await new PgliteMaintenance(db).run()).toContainEqual({ table: 'grown', vacuum: true, analyze: true });
  expect(await plan()).toContain('Index Scan using grown_k_idx on grown g');
});

it('starts on PGlite only: PostgreSQL runs its own autovacuum', async () => {
  const started = startPgliteMaintenance(db);
  expect(started).toBeInstanceOf(PgliteMaintenance);
  await started?.stop();
  expect(startPgliteMaintenance({ ...db, kind: 'postgres' })).toBeNull();
});
