import { queryOptions } from '@tanstack/react-query';
import { http } from '@/api/http';
import type { SavedScript, ScriptRunRecord, ScriptSaveInput } from '@/api/contracts/scripts';
import type { RunResult } from '@/commands/script/run';

export const scriptsQueryKey = ['scripts'] as const;

export const getScripts = async () => (await http.get<{ data: SavedScript[] }>('/scripts.json')).data;
export const getScript = async (id: number) => (await http.get<{ data: SavedScript }>(`/scripts/${id}.json`)).data;
export const createScript = async (input: ScriptSaveInput) => (await http.post<{ data: SavedScript }>('/scripts.json', input)).data;
export const updateScript = async (id: number, input: ScriptSaveInput) => (await http.put<{ data: SavedScript }>(`/scripts/${id}.json`, input)).data;
export const deleteScript = async (id: number) => http.delete(`/scripts/${id}.json`);
export const getScriptRuns = async (id: number) => (await http.get<{ data: ScriptRunRecord[] }>(`/scripts/${id}/runs.json`)).data;

export async function recordScriptRun(id: number, run: RunResult, startedAt: Date, source: 'workbench' | 'terminal', dryRun: boolean) {
  return http.post(`/scripts/${id}/runs.json`, {
    source,
    outcome: run.outcome,
    dry_run: dryRun,
    started_at: startedAt.toISOString(),
    steps: run.steps.map((s) => ({ ...s, durationMs: Math.round(s.durationMs * 10) / 10 })),
  });
}

export const scriptsQuery = () => queryOptions({ queryKey: scriptsQueryKey, queryFn: getScripts });
export const scriptRunsQuery = (id: number) => queryOptions({ queryKey: [...scriptsQueryKey, id, 'runs'], queryFn: () => getScriptRuns(id) });
