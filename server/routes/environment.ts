import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import type { Environment } from '../../src/api/contracts/session';
import { getSetting } from '../settings-store';

export const LICENSED_FEATURES = ['protected_theater', 'multisite_reporting', 'cloud_actions', 'monitors'];

function utcOffsetMinutes(timeZone: string, at = new Date()): number {
  const local = new Date(at.toLocaleString('en-US', { timeZone }));
  const utc = new Date(at.toLocaleString('en-US', { timeZone: 'UTC' }));
  return Math.round((local.getTime() - utc.getTime()) / 60000);
}

export async function environmentRoutes(app: FastifyInstance) {
  app.get('/environment.json', async (req): Promise<Environment> => {
    const session = requireUser(req);
    const [tzRow] = await app.db.query<{ time_zone: string }>('select time_zone from users where id = $1', [session.user.id]);
    const org = await getSetting(app.db, 'organization', { uuid: '00000000-0000-4000-8000-000000000001', id: 1, timeZone: 'UTC' });
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
      session_timeout_min: app.config.sessionTimeoutMin,
    };
  });
}
