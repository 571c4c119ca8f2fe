import { http } from '@/api/http';
import type { MapLayout, NetworkMap } from '@/api/contracts/topology';

export const networkQueryKey = ['network-map', 'items'] as const;
export const layoutQueryKey = ['network-map', 'layout'] as const;

/** JOB-094: the map items. */
export const getNetwork = (background = false) => http.get<NetworkMap>('/topology/network.json', { background });
export const getLayout = () => http.get<MapLayout>('/topology/layout.json');
export const putLayout = (layout: Pick<MapLayout, 'mode' | 'positions'>) => http.put<MapLayout>('/topology/layout.json', layout);
