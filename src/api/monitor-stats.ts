import { http } from './http';
import { MONITOR_STATS_REFRESH_MS, type MonitorStatsAnswer } from './contracts/monitors';

/**
 * GET /monitor/update_data (JOB-093), shared by Monitor Stats (/monitor) and the network map's aeda
 * mode, polled at the refresh interval as a background call. Under ['monitors', ...] so monitor writes
 * refresh it.
 */
export const monitorStatsQuery = {
  queryKey: ['monitors', 'stats'] as const,
  queryFn: () => http.get<MonitorStatsAnswer>('/monitor/update_data', { background: true }),
  refetchInterval: MONITOR_STATS_REFRESH_MS,
};
