import { http } from './http';
import type { NetworkMap } from './contracts/topology';

/** JOB-094: the map items, shared by the Network Map and the sequence assignment (select_nodes). */
export const networkQueryKey = ['network-map', 'items'] as const;
export const getNetwork = (background = false) => http.get<NetworkMap>('/topology/network.json', { background });

/** The map items' query as the sequence mode reads them (and its pane prefetches them): fresh for 30 s. */
export const networkQuery = { queryKey: networkQueryKey, queryFn: () => getNetwork(), staleTime: 30_000 } as const;
