import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { getSetting, putSetting } from '../settings-store';
import { validate } from '../http-errors';
import type { ContentServiceAnswer, ContentServiceState } from '../../src/api/contracts/session';

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
}
