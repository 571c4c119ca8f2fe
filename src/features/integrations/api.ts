import { ApiError, http } from '@/api/http';
import type { ActorTask, DependencyActor } from '@/api/contracts/actor-dependencies';
import type { ThreatIntelAnswer, ThreatIntelCreate, ThreatIntelNewForm, ThreatIntelSource, ThreatIntelUpdate } from '@/api/contracts/threat-intel';
import type { CreateIntegrationRequest, IntegrationNewForm, IntegrationRow, IntegrationsAnswer } from '@/api/contracts/integrations';

export const integrationsQueryKey = ['integrations'] as const;
export const INTEGRATIONS_MENU_PATH = '/integrations.json';

/** JOB-106: a failed list load reads 'Integrations: {server error or API {path} failed.}'. */
export function integrationsLoadError(err: unknown, path = INTEGRATIONS_MENU_PATH): Error {
  const server = err instanceof ApiError && err.status > 0 && err.message ? err.message : null;
  return new Error(`Integrations: ${server ?? `API ${path} failed.`}`);
}

/** GET /integrations.json?allow_msi=1&include_msi=1 (and &events=1 when events are asked for, JOB-089). */
export async function getIntegrationsMenu(events = false): Promise<IntegrationsAnswer> {
  try {
    return await http.get<IntegrationsAnswer>(INTEGRATIONS_MENU_PATH, { params: { allow_msi: 1, include_msi: 1, ...(events ? { events: 1 } : {}) }, background: true });
  } catch (e) {
    throw integrationsLoadError(e);
  }
}

export const integrationsMenuQuery = { queryKey: [...integrationsQueryKey, 'menu'] as const, queryFn: () => getIntegrationsMenu(true) };

/** The creation modal's content (GET /integrations/new.js?integration_type={type}&remote={bool}). */
export const getIntegrationForm = (type: string, remote: boolean) => http.get<IntegrationNewForm>('/integrations/new.js', { params: { integration_type: type, remote: String(remote) } });

export const createIntegration = (input: CreateIntegrationRequest) => http.post<IntegrationRow>('/integrations.json', input);
export const deleteIntegration = (id: number) => http.delete<{ id: number; deleted: boolean }>(`/integrations/${id}.json`);

// ---- actor dependency installs (JOB-061, JOB-097) ----

export const dependencyActorsQueryKey = [...integrationsQueryKey, 'dependency-actors'] as const;

/** The actors dependencies can be installed on (GET /integrations/dependency_actors.json). */
export const getDependencyActors = async () => (await http.get<{ data: DependencyActor[] }>('/integrations/dependency_actors.json', { background: true })).data;
/** One actor with its last task (GET /topology/nodes/{id}/dependencies.json), polled until the task settles. */
export const getDependencyActor = async (id: number) => (await http.get<{ data: DependencyActor }>(`/topology/nodes/${id}/dependencies.json`, { background: true })).data;
/** Queues the install on the actor (201, the task). */
export const installActorDependencies = async (id: number) => (await http.post<{ data: ActorTask }>(`/topology/nodes/${id}/install_dependencies.json`)).data;
/** Queues a version check on the actor (201, the task). */
export const checkActorVersion = async (id: number) => (await http.post<{ data: ActorTask }>(`/topology/nodes/${id}/version_check.json`)).data;

// ---- threat-intel sources (JOB-029's threat-intel integrations; docs/api.md "Threat-intel sources") ----

export const threatIntelQueryKey = [...integrationsQueryKey, 'threat-intel'] as const;
/** The sources and the kinds the menu offers (GET /threat_intel_integrations.json); a background read (the table's refresh). */
export const getThreatIntel = () => http.get<ThreatIntelAnswer>('/threat_intel_integrations.json', { background: true });
/** The creation modal's content (GET /threat_intel_integrations/new.js?integration_type={name}). */
export const getThreatIntelForm = (type: string) => http.get<ThreatIntelNewForm>('/threat_intel_integrations/new.js', { params: { integration_type: type } });
export const createThreatIntel = async (input: ThreatIntelCreate) => (await http.post<{ data: ThreatIntelSource }>('/threat_intel_integrations.json', input)).data;
export const updateThreatIntel = async (id: number, input: ThreatIntelUpdate) => (await http.patch<{ data: ThreatIntelSource }>(`/threat_intel_integrations/${id}.json`, input)).data;
export const deleteThreatIntel = (id: number) => http.delete<{ id: number; message: string }>(`/threat_intel_integrations/${id}.json`);
