import { http } from '@/api/http';
import type { LibraryListAnswer, LibrarySort, SortDirection } from '@/api/contracts/library';
import type { SimulationPreview, SimulationPreviewAnswer, SimulationType } from '@/api/contracts/simulations';
import type { EditSimulationAnswer, EditSimulationBody } from '@/api/contracts/simulation-draft';

/** Plain fetchers of the Simulations panes (commands and components share them). */

export interface SimListFilter {
  simType: SimulationType;
  search: string;
  sort: LibrarySort;
  direction: SortDirection;
}

export const simKeys = {
  all: ['simulations'] as const,
  page: (f: SimListFilter, page: number, size: number) => ['simulations', 'list', f, page, size] as const,
  preview: (ref: string) => ['simulations', 'preview', ref.toUpperCase()] as const,
};

export const fetchSimulationsPage = (f: SimListFilter, page: number, size: number, signal?: AbortSignal) =>
  http.get<LibraryListAnswer>('/v2/simulations/library_simulations_list', {
    params: { simulation_type: f.simType, search: f.search || undefined, sort: f.sort, direction: f.direction, page_number: page, page_size: size },
    signal,
  });

/** MON-127: the simulation's preview_props, by id or VID. */
export const fetchSimulationPreview = async (ref: { id: number } | { vid: string }, signal?: AbortSignal): Promise<SimulationPreview> =>
  (await http.get<SimulationPreviewAnswer>('/library/simulations.json', { params: ref, signal })).data.preview_props;

/** The preview's query (one simulation pane, select_nodes, their prefetch): by id (`#12`) or VID. */
export const previewQuery = (ref: { id: number } | { vid: string }) => ({
  queryKey: simKeys.preview('id' in ref ? `#${ref.id}` : ref.vid),
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchSimulationPreview(ref, signal),
  staleTime: 5_000,
});

/** Edit (PUT, same VID) or Clone and Edit (POST, a new VID); 409 when the version is stale. */
export const saveSimulation = (mode: 'edit' | 'clone', id: number, body: EditSimulationBody) =>
  mode === 'edit' ? http.put<EditSimulationAnswer>(`/simulations/${id}.json`, body) : http.post<EditSimulationAnswer>(`/simulations/${id}/clone.json`, body);

/** Actions matching a search, for the editor's Add Action list. */
export const searchActions = async (search: string, signal?: AbortSignal) =>
  (await http.get<LibraryListAnswer>('/manage_sims/v2/actions/library_actions_list', { params: { search: search || undefined, page_size: 20, sort: 'name', direction: 'asc' }, signal })).actions;
