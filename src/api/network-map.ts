import { http } from './http';
import type { NetworkMap } from './contracts/topology';

/** JOB-094: the map items, shared by the Network Map and the sequence assignment (select_nodes). */
export const networkQueryKey = ['network-map', 'items'] as const;
export const getNetwork = (background = false) => http.get<NetworkMap>('/topology/network.json', { background });
