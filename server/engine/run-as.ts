/**
 * host_cli run-as: the action's run-as user profile (action_user_profile_id) travels in the signed
 * work as details.run_as { username, friendly_name }, so the actor can run the script as that OS user
 * (actor/types/run-as.ts). A profile deleted since the action was saved ends the action errored.
 */
import type { Db } from '../db/index';

export async function withRunAsUser(tx: Db, details: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { run_as: _ignored, ...rest } = details;
  const id = details.action_user_profile_id;
  if (id === null || id === undefined || id === '') return rest;
  const [profile] = Number.isInteger(Number(id))
    ? await tx.query<{ username: string; friendly_name: string }>('select username, friendly_name from action_user_profiles where id = $1', [Number(id)])
    : [];
  if (!profile) throw new Error(`The run-as user profile ${String(id)} no longer exists.`);
  return { ...rest, run_as: { username: profile.username, friendly_name: profile.friendly_name } };
}
