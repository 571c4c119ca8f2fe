import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { OperationalStatus } from '@/api/contracts/operational-status';

export const statusQueryKey = ['operational_status'] as const;
/** The generic tables' refresh interval (MON-068): 5000 ms. */
export const STATUS_REFRESH_MS = 5000;

export const getOperationalStatus = () => http.get<OperationalStatus>('/operational_status.json', { background: true });
export const statusQueryOptions = () => queryOptions({ queryKey: statusQueryKey, queryFn: getOperationalStatus });
export const useOperationalStatus = () => useQuery({ ...statusQueryOptions(), refetchInterval: STATUS_REFRESH_MS });
