import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { Role } from '@/api/contracts/permissions';
import type { UserRow } from '@/api/contracts/session';

export const usersQueryKey = ['admin', 'users'] as const;

export const getUsers = async () => (await http.get<{ data: UserRow[] }>('/admin/users.json')).data;
export const usersQueryOptions = () => queryOptions({ queryKey: usersQueryKey, queryFn: getUsers });
export const useUsers = () => useQuery(usersQueryOptions());

export interface NewUser {
  email: string;
  first_name?: string;
  last_name?: string;
  role: Role;
  password: string;
}

export const createUser = async (user: NewUser) => (await http.post<{ data: UserRow }>('/admin/users.json', user)).data;
export const setUserRole = async (id: number, role: Role) => (await http.patch<{ data: UserRow }>(`/admin/users/${id}.json`, { role })).data;
export const resetUserPassword = async (id: number, password: string) => (await http.patch<{ data: UserRow }>(`/admin/users/${id}.json`, { password })).data;
