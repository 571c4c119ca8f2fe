import { queryOptions } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { ActionFormPayload, FileLibraryEntry, FileUploadAnswer, FormDefinition, LoadedAction, PickerAction, SaveAnswer, TagsAnswer } from '@/api/contracts/action-form';
import { encodeActionForm } from '@/api/contracts/action-form-encode';
import { type ActionType } from '@/api/contracts/vocabulary';

export const actionFormKeys = {
  definition: ['action-form', 'definition'] as const,
  tags: ['action-form', 'tags'] as const,
  action: (id: string) => ['action-form', 'action', id] as const,
  picker: ['action-form', 'picker'] as const,
  files: (type: string) => ['action-form', 'files', type] as const,
};

export const getFormDefinition = () => http.get<FormDefinition>('/manage_sims/actions/form_definition.json');
export const getTags = async () => (await http.get<TagsAnswer>('/manage_sims/actions/get_tags.json')).tags;
export const getLoadedAction = (idOrVid: string) => http.get<LoadedAction>(`/manage_sims/actions/${encodeURIComponent(idOrVid)}/form.json`);
export const getPickerActions = async () => (await http.get<{ data: PickerAction[] }>('/manage_sims/actions/picker.json')).data;
export const getLibraryFiles = async (type: ActionType | '') =>
  (await http.get<{ data: FileLibraryEntry[] }>('/manage_sims/file_transfer_libraries.json', { params: type ? { action_type: type } : {} })).data;

/** Saves post the spec's form data (actions.md section 7). */
const formData = (payload: ActionFormPayload) => new URLSearchParams(encodeActionForm(payload));
export const createAction = (payload: ActionFormPayload) => http.post<SaveAnswer>('/manage_sims/actions.json', formData(payload));
export const createPcapAction = (type: 'pcap' | 'captive_ioc_pcap', payload: ActionFormPayload) =>
  http.post<SaveAnswer>('/manage_sims/upload/create_pcap_action', payload, { params: type === 'captive_ioc_pcap' ? { action_type: type } : {} });
export const updateAction = (id: number, payload: ActionFormPayload) => http.put<SaveAnswer>(`/manage_sims/actions/${id}.json`, formData(payload));
export const uploadLibraryFile = (form: FormData) => http.post<FileUploadAnswer>('/manage_sims/file_transfer_libraries.json', form);

export const definitionQuery = () => queryOptions({ queryKey: actionFormKeys.definition, queryFn: getFormDefinition, staleTime: 5 * 60_000 });
export const tagsQuery = () => queryOptions({ queryKey: actionFormKeys.tags, queryFn: getTags, staleTime: 60_000 });
export const loadedActionQuery = (id: string) => queryOptions({ queryKey: actionFormKeys.action(id), queryFn: () => getLoadedAction(id), staleTime: 0, gcTime: 0 });
export const pickerQuery = () => queryOptions({ queryKey: actionFormKeys.picker, queryFn: getPickerActions, staleTime: 30_000 });
export const libraryFilesQuery = (type: ActionType | '') => queryOptions({ queryKey: actionFormKeys.files(type), queryFn: () => getLibraryFiles(type), staleTime: 10_000 });
