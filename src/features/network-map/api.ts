import { http } from '@/api/http';
import type { MapLayout } from '@/api/contracts/topology';

export const layoutQueryKey = ['network-map', 'layout'] as const;

export const getLayout = () => http.get<MapLayout>('/topology/layout.json');
export const putLayout = (layout: Pick<MapLayout, 'mode' | 'positions'>) => http.put<MapLayout>('/topology/layout.json', layout);
