import type { Db } from './db/index';

export async function getSetting<T>(db: Db, key: string, fallback: T): Promise<T> {
  const rows = await db.query<{ value: T }>('select value from settings where key = $1', [key]);
  return rows[0]?.value ?? fallback;
}

export async function putSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db.query(
    `insert into settings (key, value, updated_at) values ($1, $2::jsonb, now())
       on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
