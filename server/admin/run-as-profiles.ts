/** Run-as user profiles: list, create, update, delete (the SQL of server/routes/run-as-profiles.ts). */
import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';
import type { RunAsProfile, RunAsProfileCreate, RunAsProfileUpdate } from '../../src/api/contracts/run-as-profiles';
import { sealWithDirectorKey as sealed } from './secret-box';

const COLUMNS = `p.id, p.friendly_name, p.username, p.secret_ciphertext is not null as has_secret,
  (select count(*)::int from actions a where a.action_type = 'host_cli' and a.details->>'action_user_profile_id' = p.id::text) as action_count,
  p.created_at::text, p.updated_at::text`;

export const listProfiles = (db: Db) => db.query<RunAsProfile>(`select ${COLUMNS} from action_user_profiles p order by lower(p.friendly_name), p.id`);

async function getProfile(db: Db, id: number): Promise<RunAsProfile> {
  const [row] = await db.query<RunAsProfile>(`select ${COLUMNS} from action_user_profiles p where p.id = $1`, [id]);
  if (!row) throw notFound(`Run-as user profile ${id} does not exist.`);
  return row;
}

async function refuseTakenName(db: Db, friendlyName: string, exceptId: number | null): Promise<void> {
  const [taken] = await db.query('select 1 from action_user_profiles where lower(friendly_name) = lower($1) and id is distinct from $2', [friendlyName, exceptId]);
  if (taken) throw new HttpError(409, `A run-as user profile named ${friendlyName} already exists.`, { errors: { friendly_name: ['is already taken'] } });
}

export async function createProfile(db: Db, dataDir: string, input: RunAsProfileCreate): Promise<RunAsProfile> {
  await refuseTakenName(db, input.friendly_name, null);
  const secret = input.secret ? sealed(dataDir, input.secret) : null;
  const [row] = await db.query<{ id: number }>('insert into action_user_profiles (friendly_name, username, secret_ciphertext) values ($1, $2, $3) returning id', [input.friendly_name, input.username, secret]);
  if (!row) throw new Error('insert returned no row');
  return getProfile(db, row.id);
}

export async function updateProfile(db: Db, dataDir: string, id: number, input: RunAsProfileUpdate): Promise<RunAsProfile> {
  await getProfile(db, id);
  if (input.friendly_name) await refuseTakenName(db, input.friendly_name, id);
  const secret = input.secret ? sealed(dataDir, input.secret) : null;
  await db.query(
    `update action_user_profiles set friendly_name = coalesce($2, friendly_name), username = coalesce($3, username),
        secret_ciphertext = case when $5 then null else coalesce($4, secret_ciphertext) end, updated_at = now()
      where id = $1`,
    [id, input.friendly_name ?? null, input.username ?? null, secret, input.clear_secret === true],
  );
  return getProfile(db, id);
}

/** Refused (409) while Actions run as the profile: a job would end errored at their next run. */
export async function deleteProfile(db: Db, id: number): Promise<{ id: number; message: string }> {
  const profile = await getProfile(db, id);
  if (profile.action_count > 0) {
    const names = await db.query<{ name: string }>(
      `select name from actions where action_type = 'host_cli' and details->>'action_user_profile_id' = $1 order by name limit 3`,
      [String(id)],
    );
    const more = profile.action_count > names.length ? ` and ${profile.action_count - names.length} more` : '';
    throw new HttpError(409, `${profile.friendly_name} is used by ${profile.action_count} Action${profile.action_count === 1 ? '' : 's'} (${names.map((n) => n.name).join(', ')}${more}); change them first.`);
  }
  await db.query('delete from action_user_profiles where id = $1', [id]);
  return { id, message: `Run-as user profile ${profile.friendly_name} was deleted.` };
}
