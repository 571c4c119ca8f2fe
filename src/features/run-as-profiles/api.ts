import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { RunAsProfile, RunAsProfileCreate, RunAsProfileUpdate } from '@/api/contracts/run-as-profiles';
import { rememberProfiles } from './store';

export const profilesQueryKey = ['action_user_profiles'] as const;

export async function getProfiles(): Promise<RunAsProfile[]> {
  // A background read: the table's 5 s refresh (MON-068) must not count as the user's activity.
  const rows = (await http.get<{ data: RunAsProfile[] }>('/action_user_profiles.json', { background: true })).data;
  rememberProfiles(rows);
  return rows;
}
export const profilesQueryOptions = () => queryOptions({ queryKey: profilesQueryKey, queryFn: getProfiles });
export const useProfiles = () => useQuery(profilesQueryOptions());

export const createProfile = async (input: RunAsProfileCreate) => (await http.post<{ data: RunAsProfile }>('/action_user_profiles.json', input)).data;
export const updateProfile = async (id: number, input: RunAsProfileUpdate) => (await http.patch<{ data: RunAsProfile }>(`/action_user_profiles/${id}.json`, input)).data;
export const deleteProfile = (id: number) => http.delete<{ id: number; message: string }>(`/action_user_profiles/${id}.json`);
