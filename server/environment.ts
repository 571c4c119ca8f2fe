import type { Db } from './db/index';
import type { Environment, SessionUser } from '../src/api/contracts/session';
import { getSetting } from './settings-store';
import { wallMs } from './time/wall-clock';

export const LICENSED_FEATURES = ['protected_theater', 'multisite_reporting', 'cloud_actions', 'monitors'];

/** The zone's offset from UTC now, in minutes (its formatter cached: one per page load of the workbench). */
function utcOffsetMinutes(timeZone: string, at = Date.now()): number {
  return Math.round((wallMs(at, timeZone) - at) / 60000);
}

/**
 * The signed-in user's environment: answered by GET /environment.json, and carried by the sign-in
 * answer and GET /users/session.json, so the workbench needs no second round trip before it draws.
 */
export async function environmentOf(db: Db, session: { user: SessionUser; csrfToken: string }, sessionTimeoutMin: number): Promise<Environment> {
  const [tzRow] = await db.query<{ time_zone: string }>('select time_zone from users where id = $1', [session.user.id]);
  const org = await getSetting(db, 'organization', { uuid: '00000000-0000-4000-8000-000000000001', id: 1, timeZone: 'UTC' });
  const userTimeZone = tzRow?.time_zone ?? 'UTC';
  return {
    csrfToken: session.csrfToken,
    timeZone: org.timeZone,
    utcOffset: utcOffsetMinutes(userTimeZone),
    userTimeZone,
    orgUuid: org.uuid,
    orgId: org.id,
    plannerVersion: '1',
    nistControls: true,
    mitreMitigations: true,
    licensed_features: LICENSED_FEATURES,
    user_rights: session.user.permissions,
    preferences: { hide_modal_on_click: false, flash_notice_time: 2.5 },
    user: session.user,
    session_timeout_min: sessionTimeoutMin,
  };
}
