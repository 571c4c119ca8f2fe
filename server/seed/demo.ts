import type { Db } from '../db/index';

/** Placeholder-free minimal seed until the domain schema lands: records the seed run only. */
export async function seedDemo(db: Db): Promise<string> {
  await db.query(`insert into settings (key, value) values ('demo_seeded_at', to_jsonb(now()::text)) on conflict (key) do nothing`);
  return 'users only';
}
