import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActionInfo, MonitorActionBody, MonitorBody, MonitorDetail, MonitorGroupBody } from '@/api/contracts/monitors';
import type { RunAsMode } from '@/api/contracts/run-as-selection';
import { ApiError } from '@/api/http';
import type { PaneProps } from '@/panes/types';
import { noticeFlash } from '@/ui/toasts';
import { ErrorBanner, InfoBanner } from '@/ui/banners';
import { createMonitor, fetchDraft, fetchEditorOptions, fetchMonitor, monitorKeys, updateMonitor } from './api';
import { ActionPanel } from './action-panel';
import { DefinitionPanel } from './definition-panel';
import { clearDraft, errorsUnder, flatSteps, loadDraft, saveDraft, summaryEntry, validateDraft, type EditorDraft } from './editor-state';
import { GroupPanel } from './group-panel';
import { StepStrip } from './step-strip';
import { MonitorSummary, type SummaryEntry } from './summary';
import { monitorEditorPane } from './pane-context';
import { simulationPicks } from '@/commands/entity-picks';
import { CommandButton, runFrom, usePaneCommandContext } from '@/commands/command-menu';
import { PickField } from '@/commands/pick-field';
import { commands } from '@/commands/registry';
import { usePaneContext } from '@/panes/use-pane-context';

const userTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function fromDetail(m: MonitorDetail): EditorDraft {
  const { id, steps, monitor_group_name: _g, paused: _p, next_run_at: _n, next_job_id: _nj, last_job_id: _l, schedule: _s, fields: _f, ...def } = m;
  const info: EditorDraft['info'] = {};
  const outcomes: EditorDraft['outcomes'] = {};
  const sessionTicks: NonNullable<EditorDraft['sessionTicks']> = {};
  const body: MonitorBody = {
    ...def,
    new_monitor_group: '',
    steps: steps.map((g, gi) => {
      const { id: _id, actions, action_user_profile_field: _p, interactive_session_field: session, ...group } = g;
      // MON-066, MON-067: the saved value is the user's tick of the group's mode.
      sessionTicks[gi] = { [group.run_between === 'zone' ? 'zone' : 'actor']: session.value };
      return {
        ...group,
        actions: actions.map((a, ai) => {
          const { id: monitorActionId, name, action_type, vid, require_protected, last_outcome, last_job_action_id, drift, ...rest } = a;
          info[String(a.action_id)] = { name, action_type, vid, require_protected };
          outcomes[`${gi}:${ai}`] = { outcome: last_outcome, drift, monitor_action_id: monitorActionId, job_action_id: last_job_action_id };
          return rest;
        }),
      };
    }),
  };
  return { id, body, info, outcomes, storedRuntime: m.monitor_runtime, sessionTicks };
}

/**
 * The monitor editor (/monitors/new, /monitors/{id}/edit; sections 2-5 of monitors-actors-reporting.md):
 * definition panel, step strip, the active step's group and action panels, and the summary. Starts
 * from a monitor, a simulation (?simulation_id=, the simulation header's Monitor button) or Action
 * library picks (?action_ids=1,2). The draft is kept in session storage, so a reload keeps it.
 */
export function MonitorEditorPane({ params, setParams }: PaneProps) {
  const id = Number(params.id) || null;
  const simulationId = Number(params.simulation_id) || null;
  const actionIds = useMemo(() => (params.action_ids ?? '').split(',').map(Number).filter((n) => n > 0), [params.action_ids]);
  const key = `${id ?? 'new'}:${simulationId ?? ''}:${actionIds.join(',')}`;
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<EditorDraft | null>(() => loadDraft(key));
  const [active, setActive] = useState(0);
  const [hover, setHover] = useState<number | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const options = useQuery({ queryKey: monitorKeys.options, queryFn: fetchEditorOptions });

  useEffect(() => {
    const stored = loadDraft(key);
    if (stored) return setDraft(stored);
    setDraft(null);
    const load = id ? fetchMonitor(id).then(fromDetail) : simulationId || actionIds.length
      ? fetchDraft(simulationId ? { simulation_id: simulationId } : { action_ids: actionIds }, userTimezone()).then(({ action_info, ...body }) => ({ id: null, body, info: action_info, outcomes: {}, storedRuntime: null }))
      : null;
    load?.then(setDraft, (e: Error) => setLoadError(e.message));
  }, [key, id, simulationId, actionIds]);

  const change = useCallback(
    (fn: (b: MonitorBody) => MonitorBody) =>
      setDraft((d) => {
        if (!d) return d;
        const next = { ...d, body: fn(d.body) };
        saveDraft(key, next);
        return next;
      }),
    [key],
  );

  const steps = useMemo(() => (draft ? flatSteps(draft) : []), [draft]);
  const errors = useMemo(() => (draft && showErrors ? { ...validateDraft(draft), ...serverErrors } : serverErrors), [draft, showErrors, serverErrors]);
  const current = steps[Math.min(active, steps.length - 1)];

  const save = useCallback(async () => {
    if (!draft) throw new Error('Nothing to save yet.');
    setShowErrors(true);
    const problems = validateDraft(draft);
    if (Object.keys(problems).length) throw new Error(`Fix the highlighted fields first: ${Object.values(problems).flat()[0]}`);
    try {
      const saved = draft.id ? await updateMonitor(draft.id, draft.body) : await createMonitor(draft.body);
      clearDraft(key);
      setServerErrors({});
      await queryClient.invalidateQueries({ queryKey: monitorKeys.all });
      noticeFlash(`Saved ${saved.name}: runs ${saved.schedule}.`);
      if (!draft.id) setParams({ id: String(saved.id) });
      return { id: saved.id };
    } catch (e) {
      if (e instanceof ApiError && e.body && typeof e.body === 'object' && 'errors' in e.body) setServerErrors((e.body as { errors: Record<string, string[]> }).errors);
      throw e;
    }
  }, [draft, key, queryClient, setParams]);

  const { opts } = usePaneCommandContext();
  const discard = useCallback(() => {
    clearDraft(key);
    setDraft(null);
    setServerErrors({});
    runFrom(commands, 'pane.close', undefined, 'button', opts);
  }, [key, opts]);

  usePaneContext(monitorEditorPane, { save, discard });

  if (loadError)
    return (
      <div className="p-6">
        <ErrorBanner>Could not load the monitor: {loadError}</ErrorBanner>
      </div>
    );
  if (!draft) {
    if (id || simulationId || actionIds.length)
      return (
        <div className="p-6">
          <InfoBanner loader>Loading the monitor…</InfoBanner>
        </div>
      );
    return (
      <div className="flex max-w-xl flex-col gap-3 p-6 text-sm">
        <h2 className="text-base font-semibold">New Monitor</h2>
        <p className="text-muted">A monitor runs the actions of a simulation on a schedule. Choose the simulation to start from, or pick Actions in the Action library and run "New Monitor from Actions…".</p>
        <div className="flex flex-col gap-1 text-xs">
          <span className="text-muted">Start from a simulation</span>
          <PickField label="Start from a simulation" source={simulationPicks} multiple={false} value={[]} onChange={(v) => v[0] && setParams({ simulation_id: String(v[0].value) })} autoFocus />
        </div>
      </div>
    );
  }

  const setGroup = (gi: number, patch: Partial<Omit<MonitorGroupBody, 'actions'>>) => change((b) => ({ ...b, steps: b.steps.map((g, i) => (i === gi ? { ...g, ...patch } : g)) }));
  const tick = (gi: number, mode: RunAsMode, checked: boolean) =>
    setDraft((d) => {
      if (!d) return d;
      const next = { ...d, sessionTicks: { ...d.sessionTicks, [gi]: { ...d.sessionTicks?.[gi], [mode]: checked } } };
      saveDraft(key, next);
      return next;
    });
  const setAction = (gi: number, ai: number, patch: Partial<MonitorActionBody>) =>
    change((b) => ({ ...b, steps: b.steps.map((g, i) => (i === gi ? { ...g, actions: g.actions.map((a, j) => (j === ai ? { ...a, ...patch } : a)) } : g)) }));
  const markerState = (s: (typeof steps)[number]) => ({
    hasError: errorsUnder(errors, `steps[${s.group}].actions[${s.action}]`) || errorsUnder(errors, `steps[${s.group}]`) && s.groupStart && Object.keys(errors).some((k) => k.startsWith(`steps[${s.group}].`) && !k.includes('.actions[')),
    failed: draft.outcomes[`${s.group}:${s.action}`]?.outcome === 'fail' || draft.outcomes[`${s.group}:${s.action}`]?.drift === true,
  });
  const entries: SummaryEntry[] = [
    { step: null, hasError: false, failed: false },
    ...steps.map((s) => {
      const st = markerState(s);
      return { step: s, ...st, summary: summaryEntry(draft, s, current?.index ?? 0, st.hasError) };
    }),
    { step: null, hasError: false, failed: false },
  ];
  const group = current ? draft.body.steps[current.group] : undefined;
  const action = current && group ? group.actions[current.action] : undefined;
  const sender = group?.from_email_profile ? options.data?.email_profiles.find((p) => p.id === group.from_email_profile)?.kind ?? null : null;

  return (
    <div className="flex h-full min-h-0 flex-col overflow-auto" data-testid="monitor-editor">
      <header className="flex items-center gap-2 border-b border-line p-2">
        <h2 className="flex-1 text-sm font-semibold">{draft.id ? `Edit Monitor: ${draft.body.name}` : 'New Monitor'}</h2>
        {errors.base && <span className="text-xs text-red-400">{errors.base.join(' ')}</span>}
        <CommandButton command="monitors.discard" />
        <CommandButton command="monitors.save" variant="primary" />
      </header>
      <div className="flex flex-col gap-4 p-3">
        <DefinitionPanel body={draft.body} groups={options.data?.groups ?? []} errors={errors} onChange={(patch) => change((b) => ({ ...b, ...patch }))} />
        <StepStrip steps={steps} active={current?.index ?? 0} focusTo={hover} onOpen={setActive} state={markerState} />
        <div className="grid grid-cols-[minmax(0,1fr)_18rem] gap-4">
          <div className="flex flex-col gap-4">
            {group && current && options.data && (
              <GroupPanel
                index={current.group}
                group={group}
                actions={group.actions.map((a) => draft.info[String(a.action_id)]).filter((a): a is ActionInfo => !!a)}
                ticks={draft.sessionTicks?.[current.group]}
                options={options.data}
                errors={errors}
                onChange={(p) => setGroup(current.group, p)}
                onTick={(mode, checked) => tick(current.group, mode, checked)}
              />
            )}
            {action && current && (
              <ActionPanel
                key={`${current.group}:${current.action}`}
                path={`steps[${current.group}].actions[${current.action}]`}
                action={action}
                info={draft.info[String(action.action_id)]}
                senderKind={sender}
                errors={errors}
                onChange={(p) => setAction(current.group, current.action, p)}
              />
            )}
          </div>
          <MonitorSummary
            entries={entries}
            timeoutSeconds={draft.body.detection_timeout_seconds}
            groupNames={draft.body.steps.map((g) => g.name)}
            selectedEvents={steps.flatMap((s) => (draft.body.steps[s.group]?.actions[s.action]?.expected_events ?? []).map((e) => ({ step: s.index + 1, action: s.name, description: e.description, message: e.message })))}
            onJump={setActive}
            onHover={setHover}
          />
        </div>
      </div>
    </div>
  );
}
