import CodeMirror from '@uiw/react-codemirror';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SavedScript } from '@/api/contracts/scripts';
import { commands } from '@/commands/registry';
import { parseScript } from '@/commands/script/parse';
import { runScript, type RunResult, type TranscriptStep } from '@/commands/script/run';
import type { PaneProps } from '@/panes/types';
import { usePaneContext } from '@/panes/use-pane-context';
import { useCloseGuard, useDockKeepingThisPane } from '@/panes/use-pane-place';
import { confirmDialog } from '@/ui/confirm-store';
import { CommandButton } from '@/commands/command-menu';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';
import { finishScriptRun, getScript, isOthersScript, scriptAuthor, openScriptRun, othersScriptQuestion, scriptRunsQuery, scriptsQuery, scriptsQueryKey } from './api';
import { DISCARD_QUESTION, draftKey, forgetDraft, keepDraft, newScript, readDraft, sameScript, type ScriptDraft } from './drafts';
import { scriptsPane } from './pane-context';
import { scriptLanguage } from './script-language';
import { Transcript } from './transcript';


function RunHistory({ scriptId }: { scriptId: number }) {
  const { data, isLoading } = useQuery(scriptRunsQuery(scriptId));
  if (isLoading) return <div className="px-3 py-2 text-muted">Loading history…</div>;
  if (!data?.length) return <div className="px-3 py-2 text-muted">This script has not been run yet.</div>;
  return (
    <table className="w-full text-left text-xs" aria-label="Run history">
      <tbody>
        {data.map((r) => (
          <tr key={r.id} className="border-t border-line/50">
            <td className={`px-2 py-1 font-semibold ${r.outcome === 'ok' ? 'text-emerald-400' : 'text-red-400'}`}>
              {r.dry_run ? 'dry run ' : ''}
              {r.outcome}
            </td>
            <td className="px-2 py-1">{r.user_email ?? 'deleted user'}</td>
            <td className="px-2 py-1 text-muted">{r.source}</td>
            <td className="px-2 py-1 text-muted" title={r.started_at}>
              {formatDistanceToNow(new Date(r.started_at), { addSuffix: true })}
            </td>
            <td className="px-2 py-1 text-muted">
              {r.steps_total} steps{r.steps_failed ? `, ${r.steps_failed} failed` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Write, save, run (or dry-run) scripts of workbench commands, and read their transcripts. */
export function ScriptsPane({ params, setParams }: PaneProps) {
  const queryClient = useQueryClient();
  const { data: scripts } = useQuery(scriptsQuery());
  const scriptId = params.id && params.id !== 'new' ? Number(params.id) : null;
  const userId = commands.context().user?.id;
  const storage = typeof window === 'undefined' ? null : window.localStorage;
  // What is saved (the baseline) and what is typed; unsaved edits are kept in browser storage per script.
  const [saved, setSaved] = useState<ScriptDraft>(newScript);
  const [draft, setDraft] = useState<ScriptDraft>(() => (storage && scriptId === null && readDraft(storage, draftKey(userId, null))) || newScript());
  const [loadedId, setLoadedId] = useState<number | null>(null);
  const dirty = !sameScript(draft, saved);
  const keyOfDraft = draftKey(userId, loadedId);
  const [steps, setSteps] = useState<TranscriptStep[]>([]);
  const [running, setRunning] = useState(false);
  const [continueOnError, setContinueOnError] = useState(false);
  const [lastOutcome, setLastOutcome] = useState<RunResult['outcome'] | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const extensions = useMemo(() => scriptLanguage(commands), []);
  const autoRan = useRef(false);
  const dockKeepingThisPane = useDockKeepingThisPane();

  // Keep the unsaved edits of the script shown (a reload or a crash does not lose them).
  const loadedFor = useRef<number | null | undefined>(scriptId === null ? null : undefined);
  useEffect(() => {
    if (storage && loadedFor.current === loadedId) keepDraft(storage, keyOfDraft, draft, saved);
  }, [storage, keyOfDraft, draft, saved, loadedId]);

  // Closing the pane with unsaved changes asks first; discarding forgets the kept draft.
  useCloseGuard(async () => {
    if (!dirty) return true;
    const discard = await confirmDialog(DISCARD_QUESTION.message(draft.name.trim()), DISCARD_QUESTION.wording);
    if (discard && storage) forgetDraft(storage, keyOfDraft);
    return discard;
  });

  // Load the script named by the pane's params (once per id, keeping unsaved edits otherwise).
  useEffect(() => {
    if (scriptId === null) {
      if (loadedId !== null) {
        setSaved(newScript());
        setDraft((storage && readDraft(storage, draftKey(userId, null))) || newScript());
        setLoadedId(null);
        loadedFor.current = null;
      }
      return;
    }
    if (scriptId === loadedId) return;
    let cancelled = false;
    getScript(scriptId)
      .then((s) => {
        if (cancelled) return;
        const fromServer = { name: s.name, body: s.body, shared: s.shared };
        setSaved(fromServer);
        setDraft((storage && readDraft(storage, draftKey(userId, s.id))) || fromServer);
        setLoadedId(s.id);
        loadedFor.current = s.id;
        setSteps([]);
        setLastOutcome(null);
      })
      .catch((e: Error) => flash('alert', e.message));
    return () => {
      cancelled = true;
    };
  }, [scriptId, loadedId, storage, userId]);

  const current: SavedScript | undefined = scripts?.find((s) => s.id === loadedId);
  const me = commands.context().user;
  const mayShare = commands.context().permissions.has('scripts.share');

  const execute = useCallback(
    async (dryRun: boolean) => {
      if (running) return;
      // Someone else's script runs with this user's permissions: ask first (a dry run performs nothing).
      const ctx = commands.context();
      if (!dryRun && current && isOthersScript(current, ctx.user?.id) && !(await ctx.confirm(othersScriptQuestion(current), { confirmLabel: 'Run Script', cancelLabel: 'Do Not Run' }))) return;
      const controller = new AbortController();
      abortRef.current = controller;
      setRunning(true);
      setSteps([]);
      setLastOutcome(null);
      const runId = loadedId !== null ? await openScriptRun(loadedId, 'workbench', dryRun).catch(() => null) : null;
      try {
        const result = await runScript(commands, parseScript(draft.body), {
          dryRun,
          continueOnError,
          signal: controller.signal,
          dock: dockKeepingThisPane(),
          onStep: (s) => setSteps((prev) => [...prev, s]),
        });
        setLastOutcome(result.outcome);
        if (loadedId !== null && runId !== null) {
          await finishScriptRun(loadedId, runId, result).catch(() => undefined);
          await queryClient.invalidateQueries({ queryKey: [...scriptsQueryKey, loadedId, 'runs'] });
        }
        return result;
      } finally {
        abortRef.current = null;
        setRunning(false);
      }
    },
    [running, draft.body, continueOnError, loadedId, queryClient, current, dockKeepingThisPane],
  );

  // Run, Dry Run, Save, Delete and Stop are commands (hotkeys, palette, buttons, scripts): they reach this pane's state here.
  usePaneContext(scriptsPane, {
    draft: () => draft,
    loadedId: () => loadedId,
    mayDelete: () => current === undefined || current.user_id === commands.context().user?.id || commands.context().user?.role === 'admin',
    running: () => running,
    execute,
    stop: () => abortRef.current?.abort(),
    showSaved: (script) => {
      const stored = { name: script.name, body: script.body, shared: script.shared };
      setSaved(stored);
      setDraft((d) => (sameScript({ ...d, name: d.name.trim() }, stored) ? stored : d));
      if (loadedId === null && storage) forgetDraft(storage, draftKey(userId, null));
      setLoadedId(script.id);
      loadedFor.current = script.id;
      if (String(script.id) !== params.id) setParams({ id: String(script.id) });
    },
    showDeleted: () => {
      if (storage) forgetDraft(storage, keyOfDraft);
      setSaved(draft);
      setParams({ id: 'new' });
    },
  });

  // 'Run script: …' from the palette opens the pane with run=1: run once the script is loaded.
  useEffect(() => {
    if (params.run === '1' && loadedId !== null && loadedId === scriptId && !autoRan.current) {
      autoRan.current = true;
      setParams({ id: String(loadedId) });
      void execute(false);
    }
  }, [params.run, loadedId, scriptId, execute, setParams]);

  return (
    <div className="flex h-full min-h-0">
      <nav aria-label="Saved scripts" className="w-56 shrink-0 overflow-y-auto border-r border-line">
        <div className="flex items-center justify-between px-3 py-2">
          <span className="text-2xs font-semibold tracking-wider text-muted uppercase">Saved scripts</span>
          <Button variant="ghost" className="px-1.5 py-0 text-xs" onClick={() => setParams({ id: 'new' })}>
            New
          </Button>
        </div>
        {!scripts?.length && <div className="px-3 text-xs text-muted">No saved scripts yet.</div>}
        <ul>
          {scripts?.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                aria-current={s.id === loadedId ? 'true' : undefined}
                className={`block w-full truncate px-3 py-1 text-left text-sm ${s.id === loadedId ? 'bg-accent/20' : 'hover:bg-raised'}`}
                onClick={() => setParams({ id: String(s.id) })}
                title={`${s.name} (${s.owner_email}${s.shared ? ', shared' : ''})`}
              >
                {s.name}
                {s.shared && <span className="ml-1 text-2xs text-muted">shared</span>}
                {isOthersScript(s, me?.id) && <span className="block truncate text-2xs text-muted">by {scriptAuthor(s)}</span>}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section className="flex min-w-0 flex-1 flex-col">
        <div className="flex flex-wrap items-center gap-2 border-b border-line px-3 py-2">
          <label className="flex items-center gap-1 text-xs text-muted">
            Name
            <input
              aria-label="Script name"
              className="w-56 rounded border border-line bg-surface px-2 py-1 text-sm text-ink"
              value={draft.name}
              placeholder="e.g. Cancel stale jobs"
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
          </label>
          <label className="flex items-center gap-1 text-xs" title={mayShare ? undefined : 'Sharing a script needs the scripts.share permission (operators, approvers and administrators).'}>
            <input type="checkbox" checked={draft.shared} disabled={!mayShare && !draft.shared} onChange={(e) => setDraft({ ...draft, shared: e.target.checked })} />
            Shared with everyone
          </label>
          {current && <span className="text-xs text-muted">Author: {isOthersScript(current, me?.id) ? scriptAuthor(current) : 'you'}</span>}
          {dirty && (
            <span role="status" className="text-xs text-amber-400" title="Kept as a draft in this browser until you save or discard it">
              Unsaved changes
            </span>
          )}
          <CommandButton command="scripts.saveCurrent" />
          <CommandButton command="scripts.deleteCurrent" variant="ghost" />
          <div className="flex-1" />
          <label className="flex items-center gap-1 text-xs">
            <input type="checkbox" checked={continueOnError} onChange={(e) => setContinueOnError(e.target.checked)} />
            Continue after a failure
          </label>
          <CommandButton command="scripts.dryRunCurrent" />
          {running ? <CommandButton command="scripts.stopCurrent" variant="danger" /> : <CommandButton command="scripts.runCurrent" variant="primary" />}
        </div>
        <div className="min-h-40 flex-[3] overflow-auto border-b border-line" data-testid="script-editor">
          <CodeMirror
            value={draft.body}
            onChange={(body) => setDraft((d) => ({ ...d, body }))}
            extensions={extensions}
            theme={document.documentElement.classList.contains('dark') ? 'dark' : 'light'}
            basicSetup={{ tabSize: 2, autocompletion: false }}
            aria-label="Script"
            height="100%"
            style={{ height: '100%', fontSize: 13 }}
          />
        </div>
        <div className="min-h-24 flex-[2] overflow-auto" aria-live="polite">
          <div className="flex items-center gap-2 border-b border-line px-3 py-1 text-2xs font-semibold tracking-wider text-muted uppercase">
            Transcript
            {lastOutcome && (
              <span role="status" className={lastOutcome === 'ok' ? 'text-emerald-400' : 'text-red-400'}>
                {lastOutcome === 'ok' ? 'Script finished' : lastOutcome === 'stopped' ? 'Script stopped' : 'Script failed'}
              </span>
            )}
          </div>
          <Transcript steps={steps} running={running} />
          {loadedId !== null && (
            <>
              <div className="border-y border-line px-3 py-1 text-2xs font-semibold tracking-wider text-muted uppercase">History</div>
              <RunHistory scriptId={loadedId} />
            </>
          )}
        </div>
      </section>
    </div>
  );
}

