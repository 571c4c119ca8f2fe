import { http } from './http';
import type { MonitorStatsAnswer } from './contracts/monitors';

/**
 * GET /monitor/update_data (JOB-093), shared by Monitor Stats (/monitor) and the network map's aeda
 * mode, polled at the given refresh interval (monitorStatsRefreshMs of the URL's `refresh`) as a
 * background call. Under ['monitors', ...] so monitor writes refresh it.
 */
export const monitorStatsQuery = (refreshMs: number) => ({
  queryKey: ['monitors', 'stats'] as const,
  queryFn: () => http.get<MonitorStatsAnswer>('/monitor/update_data', { background: true }),
  refetchInterval: refreshMs,
});
