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

/** Opens a run record before the first step: the signed-in user is its runner, the only one who may finish it. */
export async function openScriptRun(id: number, source: 'workbench' | 'terminal', dryRun: boolean): Promise<number> {
  const answer = await http.post<{ data: { id: number } }>(`/scripts/${id}/runs.json`, { source, dry_run: dryRun, started_at: new Date().toISOString() });
  return answer.data.id;
}

/** Finishes the run record with the outcome and the transcript. */
export async function finishScriptRun(id: number, runId: number, run: RunResult) {
  return http.put(`/scripts/${id}/runs/${runId}.json`, {
    outcome: run.outcome,
    steps: run.steps.map((s) => ({ ...s, durationMs: Math.round(s.durationMs * 10) / 10 })),
  });
}

/** Whether running this script needs the user's confirmation first: someone else wrote it. */
export const isOthersScript = (s: Pick<SavedScript, 'user_id'>, userId: number | undefined) => s.user_id !== userId;

/** Who wrote a script: 'Name (email)', or the email alone. */
export const scriptAuthor = (s: Pick<SavedScript, 'owner_email' | 'owner_name'>) => (s.owner_name ? `${s.owner_name} (${s.owner_email})` : s.owner_email);

/** The question asked before running someone else's script (its commands run with the runner's permissions). */
export const othersScriptQuestion = (s: Pick<SavedScript, 'name' | 'owner_email' | 'owner_name'>) =>
  `"${s.name}" was written by ${scriptAuthor(s)}. Its commands run with your permissions. Run it?`;

export const scriptsQuery = () => queryOptions({ queryKey: scriptsQueryKey, queryFn: getScripts });
export const scriptRunsQuery = (id: number) => queryOptions({ queryKey: [...scriptsQueryKey, id, 'runs'], queryFn: () => getScriptRuns(id) });
