import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { NodeDetail, NodeEditOptions, NodeUpdate } from '@/api/contracts/node-edit';

export const nodeQueryKey = (id: number) => ['topology', 'node', id] as const;

export const getNode = (id: number) => http.get<{ data: NodeDetail; options: NodeEditOptions }>(`/topology/nodes/${id}.json`);
export const nodeQueryOptions = (id: number) => queryOptions({ queryKey: nodeQueryKey(id), queryFn: () => getNode(id) });
export const useNode = (id: number) => useQuery({ ...nodeQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });

export const updateNode = async (id: number, input: NodeUpdate) => (await http.patch<{ data: NodeDetail }>(`/topology/nodes/${id}.json`, input)).data;
