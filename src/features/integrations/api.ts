import { http } from '@/api/http';
import type { CreateIntegrationRequest, IntegrationRow } from '@/api/contracts/integrations';

export const integrationsQueryKey = ['integrations'] as const;

export const createIntegration = (input: CreateIntegrationRequest) => http.post<IntegrationRow>('/integrations.json', input);
