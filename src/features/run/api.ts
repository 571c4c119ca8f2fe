import { http } from '@/api/http';
import type { RunActor, RunAnswer, RunRequest } from '@/api/contracts/engine';

export type RunKind = 'action' | 'sequence' | 'evaluation';
const SEGMENT: Record<RunKind, string> = { action: 'actions', sequence: 'sequences', evaluation: 'evaluations' };

export const runActorsQueryKey = ['run', 'actors'] as const;
export const getRunActors = async () => (await http.get<{ data: RunActor[] }>('/run/actors.json')).data;

/** Creates a job for an action, a sequence or an evaluation between two actors (the Run All Actions form). */
export const runJob = (kind: RunKind, id: number, form: RunRequest) => http.post<RunAnswer>(`/run/${SEGMENT[kind]}/${id}.json`, form);
