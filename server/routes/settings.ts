import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { getSetting, putSetting } from '../settings-store';
import { bodyFields, validate } from '../http-errors';
import type { ContentServiceAnswer, ContentServiceState } from '../../src/api/contracts/session';
import { DEFAULT_SITE_BANNER, siteBannerSchema, type SiteBanner } from '../../src/api/contracts/site-banner';

const STATES: ContentServiceState[] = ['CONNECTED', 'DISCONNECTED', 'RECONNECTING'];

export const contentServiceSchema = yup
  .object({
    content_service_state: yup.string().oneOf(STATES, `content_service_state must be one of ${STATES.join(', ')}`).required('content_service_state is required'),
    content_service_last_success: yup
      .string()
      .datetime({ allowOffset: true, message: 'content_service_last_success must be an ISO 8601 date and time' })
      .nullable()
      .default(null),
    authenticity_token: yup.string(),
  })
  .noUnknown();

export async function settingsRoutes(app: FastifyInstance) {
  app.get('/settings/content_service.json', async (req): Promise<ContentServiceAnswer> => {
    requireUser(req);
    return getSetting<ContentServiceAnswer>(app.db, 'content_service', { content_service_state: 'CONNECTED', content_service_last_success: new Date().toISOString() });
  });

  // Administrators (and the content-service probe) record the connection state here.
  app.put('/settings/content_service.json', async (req): Promise<ContentServiceAnswer> => {
    requirePermission(req, 'users.manage');
    const input = validate(contentServiceSchema, req.body);
    const value: ContentServiceAnswer = {
      content_service_state: input.content_service_state as ContentServiceState,
      content_service_last_success: input.content_service_last_success ? new Date(input.content_service_last_success).toISOString() : null,
    };
    await putSetting(app.db, 'content_service', value);
    return value;
  });

  // The site banner (MON-027..029, MON-114): every signed-in user reads it; administrators set it.
  app.get('/settings/site_banner.json', async (req): Promise<SiteBanner> => {
    requireUser(req);
    return getSetting<SiteBanner>(app.db, 'site_banner', DEFAULT_SITE_BANNER);
  });

  app.put('/settings/site_banner.json', async (req): Promise<SiteBanner> => {
    requirePermission(req, 'users.manage');
    const input = validate(siteBannerSchema, bodyFields(req.body));
    const value: SiteBanner = { enabled: input.enabled, text: input.text, color: input.color.toUpperCase() };
    await putSetting(app.db, 'site_banner', value);
    return value;
  });
}
