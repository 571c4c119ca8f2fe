import type { Db } from '../db/index';
import type { JobSummary } from '../../src/api/contracts/library';

/** A timestamp column as ISO 8601 text in UTC (what the answers carry). */
export const isoCol = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Latest Runs rows: the jobs `where` selects (on `jobs j`), newest first, at most `limit`. */
export async function jobSummaries(db: Db, where: string, params: unknown[], limit: number): Promise<JobSummary[]> {
  const rows = await db.query<{ id: number; name: string; created_at: string; status: string; first_name: string | null; last_name: string | null; has_user: boolean }>(
    `select j.id, j.name, ${isoCol('j.created_at')} as created_at, j.status, u.first_name, u.last_name, (u.id is not null) as has_user
       from jobs j left join users u on u.id = j.user_id
      where ${where}
      order by j.id desc limit ${limit}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created_at: r.created_at,
    status: r.status,
    user: r.has_user ? { first_name: r.first_name ?? '', last_name: r.last_name ?? '' } : null,
  }));
}
