import { http } from '@/api/http';
import type { ActorTables, BulkTokenInput, CreatedBulkToken, InstallerOption, PendingNode, RegisterPush } from '@/api/contracts/actors';

export const actorsQueryKey = ['actors'] as const;
export const tablesQueryKey = ['actors', 'tables'] as const;
export const pendingQueryKey = (id: number) => ['actors', 'pending', id] as const;
export const installerQueryKey = (id: number) => ['actors', 'installer', id] as const;
export const registerPushQueryKey = (id: number) => ['actors', 'register-push', id] as const;

/** The table source (MON-128); polls are background calls, so they do not keep the session alive. */
export const getTables = (background = false) => http.get<ActorTables>('/actors/tables.json', { background });
export const getPending = (id: number, background = false) => http.get<PendingNode[]>(`/bulk_pending_nodes/${id}`, { background });
export const getInstallerOptions = async (id: number) => (await http.get<{ data: InstallerOption[] }>(`/actor_installer/${id}/options.json`)).data;
export const getRegisterPush = async (id: number) => (await http.get<{ data: RegisterPush }>('/nodes/new.js', { params: { node_type: 'bulk', id } })).data;
export const getTokenCsv = (id: number) => http.get<string>(`/csv_bulk_token/${id}`, { parse: 'text' });

export const createToken = (input: BulkTokenInput) => http.post<CreatedBulkToken>('/bulk_tokens.json', input);
export const clearToken = (id: number) => http.delete<{ id: number; message: string }>(`/delete_bulk_token/${id}`);
export const clearPendingActor = (id: number) => http.delete<{ id: number; message: string }>(`/nodes/${id}/destroy_pending.js`);
