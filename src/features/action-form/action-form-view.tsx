/**
 * The Add/Edit Action wizard: three steps (Name/Description, Action Details, Tags/Dimensions) shown
 * as a wizard or all at once, header Cancel/Reset/Save, drafts kept in browser storage, save with the
 * spec's flash texts and server errors mapped onto fields.
 */
import { useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm, useFormState, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  MSG,
  defaultTypeFields,
  typeKey,
  type FileDisplay,
  type FormDefinition,
  type LoadedAction,
  type SaveAnswer,
  type TagOption,
} from '@/api/contracts/action-form';
import { ApiError } from '@/api/http';
import { commands } from '@/commands/registry';
import { WorkbenchContext } from '@/panes/pane-context';
import { Button } from '@/ui/button';
import { confirmDialog } from '@/ui/confirm';
import { flash } from '@/ui/toasts';
import { createAction, createPcapAction, libraryFilesQuery, updateAction } from './api';
import { CloudSaveModal } from './cloud-save-modal';
import { registerController, type FormController, type FormPaneKind, type SaveResult } from './controllers';
import { dropDraft, readDraft, stableJson, writeDraft, type Draft } from './drafts';
import { FormEnvContext, type FormEnv } from './form-env';
import {
  applyDimensionDefaults,
  fieldLabel,
  headerFilled,
  loadedValues,
  nestErrors,
  serverErrorsToFields,
  stepOfField,
  toPayload,
  validatePayload,
  type ActionFormValues,
  type FormMode,
  type StepNumber,
} from './form-model';
import { StepDetails } from './step-details';
import { StepTags } from './step-tags';
import { StepType } from './step-type';
import { testPayload } from './test-values';
import { type ActionType, type FileRestriction } from '@/api/contracts/vocabulary';

export const STEPS: { n: StepNumber; title: string }[] = [
  { n: 1, title: 'Name/Description' },
  { n: 2, title: 'Action Details' },
  { n: 3, title: 'Tags/Dimensions' },
];

const NOTICE_ACTIONS_URL = '/manage_sims/actions';

export interface ActionFormViewProps {
  mode: FormMode;
  paneKind: FormPaneKind;
  paneParams: Record<string, string>;
  controllerKey: string;
  def: FormDefinition;
  tags: TagOption[];
  loaded: LoadedAction | null;
  initial: ActionFormValues;
  initialFiles: FileDisplay[];
  draftKey: string;
  storage?: Storage;
}

/** Flattens react-hook-form errors into path -> message. */
export function flattenErrors(errors: FieldErrors, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) {
    if (!v || typeof v !== 'object' || k === 'ref') continue;
    const path = prefix ? `${prefix}.${k}` : k;
    const e = v as { message?: unknown; type?: unknown };
    if (typeof e.message === 'string' && e.message) out[path] = e.message;
    Object.assign(out, flattenErrors(v as FieldErrors, path));
  }
  return out;
}

function ErrorSummary({ goTo }: { goTo(step: StepNumber): void }) {
  const { errors, submitCount } = useFormState<ActionFormValues>();
  const flat = flattenErrors(errors as FieldErrors);
  const entries = Object.entries(flat);
  if (!entries.length || submitCount === 0) return null;
  return (
    <div role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm" data-testid="error-summary">
      <div className="font-semibold">
        {entries.length} problem{entries.length === 1 ? '' : 's'} kept this Action from saving:
      </div>
      <ul className="mt-1 list-disc pl-5">
        {entries.slice(0, 12).map(([path, message]) => (
          <li key={path}>
            <button type="button" className="text-left underline decoration-dotted" onClick={() => goTo(stepOfField(path))}>
              Step {stepOfField(path)}: {fieldLabel(path)} {message}
            </button>
          </li>
        ))}
        {entries.length > 12 && <li>and {entries.length - 12} more</li>}
      </ul>
    </div>
  );
}

export function ActionFormView(props: ActionFormViewProps) {
  const { mode, def, tags, loaded, initial, initialFiles, draftKey, controllerKey, paneKind, paneParams } = props;
  const storage = props.storage ?? window.localStorage;
  const queryClient = useQueryClient();
  const workbench = useContext(WorkbenchContext);
  const ctx = commands.context();
  const canCreate = ctx.permissions.has('create_action_permission');
  const brtAuth = def.flags.brt_auth;
  const canApproveCloud = ctx.permissions.has('approve_action_permission') && ctx.permissions.has('approve') && ctx.permissions.has('cloudApproval');

  const baseline = useRef({ values: initial, files: initialFiles });
  const [knownFiles, setKnownFiles] = useState<Record<number, FileDisplay>>(() => Object.fromEntries(initialFiles.map((f) => [f.id, f])));
  const knownRef = useRef(knownFiles);
  knownRef.current = knownFiles;
  const rememberFiles = useCallback((files: FileDisplay[]) => setKnownFiles((k) => ({ ...k, ...Object.fromEntries(files.map((f) => [f.id, f])) })), []);

  const resolver = useCallback<Resolver<ActionFormValues>>(
    async (values) => {
      const flat = validatePayload(toPayload(values, { brtAuth }));
      if (!Object.keys(flat).length) return { values, errors: {} };
      return { values: {}, errors: nestErrors(flat) as FieldErrors<ActionFormValues> };
    },
    [brtAuth],
  );
  const form = useForm<ActionFormValues>({ defaultValues: initial, resolver, mode: 'onSubmit', reValidateMode: 'onChange' });
  const { getValues, setValue, reset, setError, clearErrors, control } = form;
  const [view, setView] = useState<'wizard' | 'all'>(brtAuth ? 'all' : 'wizard');
  const [step, setStep] = useState<StepNumber>(1);
  const [saving, setSaving] = useState(false);
  const [cloudOpen, setCloudOpen] = useState(false);
  const [draftOffer, setDraftOffer] = useState<Draft | null>(null);
  const draftOfferRef = useRef<Draft | null>(null);
  draftOfferRef.current = draftOffer;
  const sim = useWatch({ control, name: 'sim_action' });
  const type = (sim?.action_type ?? '') as ActionType | '';
  const filled = headerFilled({ sim_action: sim ?? initial.sim_action });
  const stepRefs = useRef<Record<StepNumber, HTMLElement | null>>({ 1: null, 2: null, 3: null });
  const title = mode === 'edit' && loaded ? `Edit Action ${loaded.vid}` : 'Add Action';
  const readOnly = !canCreate;

  // The pane's tab says 'Edit Action {vid}' once the Action is loaded.
  const panelId = workbench ? workbench.controller.keyFor({ kind: paneKind, params: paneParams }) : null;
  useEffect(() => {
    if (!workbench || !panelId || !loaded) return;
    const t = mode === 'edit' ? `Edit Action ${loaded.vid}` : mode === 'clone' ? `Clone Action ${loaded.vid}` : null;
    if (t) workbench.controller.dock?.getPanel(panelId)?.api.setTitle(t);
  }, [workbench, panelId, loaded, mode]);

  // ---- drafts ------------------------------------------------------------------------------
  useEffect(() => {
    const d = readDraft(storage, draftKey);
    if (!d) return;
    if (stableJson(d.values) === stableJson(initial)) {
      dropDraft(storage, draftKey);
      return;
    }
    setDraftOffer(d);
    flash('info', `Unsaved changes to this Action from ${formatDistanceToNow(d.savedAt, { addSuffix: true })} were kept. Restore them from the notice at the top of the form.`);
    // Read once, when the form opens.
  }, []);

  const stepRef = useRef(step);
  stepRef.current = step;
  const writeNow = useCallback(() => {
    if (draftOfferRef.current || readOnly) return;
    const values = getValues();
    if (stableJson(values) === stableJson(baseline.current.values)) dropDraft(storage, draftKey);
    else writeDraft(storage, draftKey, { values, knownFiles: Object.values(knownRef.current), savedAt: Date.now(), baseVersion: loaded?.version ?? null, step: stepRef.current });
  }, [getValues, storage, draftKey, loaded, readOnly]);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saved = useRef(false);
  useEffect(() => {
    const sub = form.watch(() => {
      if (pending.current) clearTimeout(pending.current);
      pending.current = setTimeout(() => {
        pending.current = null;
        if (!saved.current) writeNow();
      }, 400);
    });
    const flush = () => {
      if (pending.current) {
        clearTimeout(pending.current);
        pending.current = null;
        if (!saved.current) writeNow();
      }
    };
    window.addEventListener('beforeunload', flush);
    return () => {
      sub.unsubscribe();
      window.removeEventListener('beforeunload', flush);
      flush();
    };
  }, [form, writeNow]);

  const restoreDraft = () => {
    const d = draftOffer;
    if (!d) return;
    rememberFiles(d.knownFiles);
    reset(d.values, { keepDefaultValues: true });
    setStep(d.step);
    setDraftOffer(null);
    if (loaded && d.baseVersion !== null && d.baseVersion !== loaded.version) {
      flash('info', `This draft was made on version ${d.baseVersion}; the Action is now at version ${loaded.version}. Saving replaces the newer version.`);
    } else flash('notice', 'Your unsaved changes were restored.');
  };
  const discardDraft = () => {
    dropDraft(storage, draftKey);
    setDraftOffer(null);
  };

  // ---- navigation --------------------------------------------------------------------------
  const moved = useRef(false);
  const goTo = useCallback(
    (n: StepNumber) => {
      moved.current = true;
      setStep(n);
      if (view === 'all') stepRefs.current[n]?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    },
    [view],
  );
  // Moving between wizard steps puts the focus on the step's first field (keyboard users land in it).
  useEffect(() => {
    if (!moved.current || view !== 'wizard') return;
    moved.current = false;
    const el = stepRefs.current[step]?.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled]), .cm-content, button:not([disabled])');
    el?.focus();
  }, [step, view]);
  const showFirstError = (paths: string[]) => {
    const first = Math.min(...paths.map(stepOfField)) as StepNumber;
    if (Number.isFinite(first)) goTo(first);
  };

  // ---- type change -------------------------------------------------------------------------
  const onTypeChange = (next: ActionType | '') => {
    const prev = getValues('sim_action.action_type');
    if (next === prev) return;
    setValue('sim_action.action_type', next, { shouldDirty: true });
    if (prev) setValue(typeKey(prev), defaultTypeFields(prev) as never, { shouldDirty: true });
    if (next) {
      setValue(typeKey(next), defaultTypeFields(next) as never, { shouldDirty: true });
      if (mode !== 'edit') setValue('trees', applyDimensionDefaults(getValues('trees'), def, next), { shouldDirty: true });
      if (next === 'sleep' && getValues('sim_action.timeout_ms') == null) setValue('sim_action.timeout_ms', 30000, { shouldDirty: true });
    }
    clearErrors();
  };

  // ---- save --------------------------------------------------------------------------------
  const restrictionsOfAttached = (): FileRestriction[] => {
    const v = getValues();
    const ids = v.sim_action.action_type === 'cloud' ? v.cloud_action.files.map((f) => f.file_id) : [];
    return ids.map((id) => knownRef.current[id]?.file_restrictions).filter((r): r is FileRestriction => !!r);
  };

  const submit = async (approveNow: boolean): Promise<SaveResult> => {
    const values = getValues();
    const payload = toPayload(values, { brtAuth, ...(mode === 'edit' && loaded ? { lockVersion: loaded.version } : {}) });
    if (payload.cloud_action) payload.cloud_action.approve_anywhere = approveNow;
    setSaving(true);
    try {
      const t = values.sim_action.action_type;
      const answer: SaveAnswer =
        mode === 'edit' && loaded
          ? await updateAction(loaded.id, payload)
          : (t === 'pcap' || t === 'captive_ioc_pcap') && def.pcap_upload
            ? await createPcapAction(t, payload)
            : await createAction(payload);
      saved.current = true;
      dropDraft(storage, draftKey);
      setCloudOpen(false);
      flash('notice', answer.notice);
      void queryClient.invalidateQueries();
      if (workbench) {
        if (panelId) workbench.controller.dock?.getPanel(panelId)?.api.close();
        workbench.controller.openUrl(NOTICE_ACTIONS_URL);
      }
      return { ok: true, id: answer.id, vid: answer.vid };
    } catch (e) {
      setCloudOpen(false);
      if (e instanceof ApiError) {
        const body = (e.body && typeof e.body === 'object' ? e.body : {}) as { errors?: Record<string, string[]> };
        const fields = serverErrorsToFields(body.errors);
        for (const [path, message] of Object.entries(fields)) setError(path as never, { type: 'server', message });
        flash('alert', e.status === 400 ? e.message || MSG.saveFailed : e.message);
        if (Object.keys(fields).length) showFirstError(Object.keys(fields));
      } else flash('alert', e instanceof Error ? e.message : String(e));
      return { ok: false };
    } finally {
      setSaving(false);
    }
  };

  const save = async (): Promise<SaveResult> => {
    if (readOnly || saving) return { ok: false };
    if (!getValues('sim_action.action_type')) {
      setError('sim_action.action_type', { type: 'required', message: 'Select an Action Type.' });
      flash('alert', MSG.selectType);
      goTo(1);
      return { ok: false };
    }
    let valid = false;
    await form.handleSubmit(
      () => {
        valid = true;
      },
      (errors) => {
        flash('alert', MSG.saveFailed);
        showFirstError(Object.keys(flattenErrors(errors as FieldErrors)));
      },
    )();
    if (!valid) return { ok: false };
    if (getValues('sim_action.action_type') === 'cloud') {
      setCloudOpen(true);
      return { ok: false };
    }
    return submit(false);
  };

  const doReset = () => {
    reset(baseline.current.values);
    setKnownFiles(Object.fromEntries(baseline.current.files.map((f) => [f.id, f])));
    clearErrors();
    dropDraft(storage, draftKey);
    setDraftOffer(null);
  };

  const closePane = () => {
    if (!workbench) return;
    if (panelId) workbench.controller.dock?.getPanel(panelId)?.api.close();
    workbench.controller.openUrl(NOTICE_ACTIONS_URL);
  };
  const cancel = async () => {
    const dirty = stableJson(getValues()) !== stableJson(baseline.current.values);
    if (dirty && !(await confirmDialog('Discard the unsaved changes to this Action?', { title: 'Cancel', confirmLabel: 'Discard' }))) return;
    saved.current = true;
    if (pending.current) clearTimeout(pending.current);
    dropDraft(storage, draftKey);
    closePane();
  };

  const fillTestValues = async () => {
    if (readOnly) return;
    const t = (getValues('sim_action.action_type') || 'dns') as ActionType;
    let files: FileDisplay[] = [];
    if (t === 'email' || t === 'host_cli' || t === 'cloud' || t === 'file_transfer') {
      try {
        files = await queryClient.fetchQuery(libraryFilesQuery(t));
      } catch {
        files = [];
      }
    }
    const payload = testPayload(t, def, files);
    rememberFiles(files);
    const next = loadedValues(payload, 'new');
    next.system_override = getValues('system_override');
    reset(next, { keepDefaultValues: true });
    flash('info', `Test values for a ${t} Action were filled in.`);
  };

  // ---- commands see this form through its controller ----------------------------------------
  const api = useRef<FormController>(null as unknown as FormController);
  api.current = {
    save,
    reset: doReset,
    cancel,
    next: () => {
      moved.current = true;
      setStep((s) => (s < 3 ? ((s + 1) as StepNumber) : s));
    },
    previous: () => {
      moved.current = true;
      setStep((s) => (s > 1 ? ((s - 1) as StepNumber) : s));
    },
    goTo,
    toggleView: () => setView((v) => (v === 'wizard' ? 'all' : 'wizard')),
    fillTestValues,
    canSave: () => !saving && headerFilled(getValues()),
    canEdit: () => canCreate,
  };
  useEffect(() => {
    const proxyController: FormController = {
      save: () => api.current.save(),
      reset: () => api.current.reset(),
      cancel: () => api.current.cancel(),
      next: () => api.current.next(),
      previous: () => api.current.previous(),
      goTo: (n) => api.current.goTo(n),
      toggleView: () => api.current.toggleView(),
      fillTestValues: () => api.current.fillTestValues(),
      canSave: () => api.current.canSave(),
      canEdit: () => api.current.canEdit(),
    };
    return registerController(controllerKey, proxyController);
  }, [controllerKey]);

  const env: FormEnv = useMemo(
    () => ({ def, tags, mode, canCreate, canApproveCloud, brtAuth, protectedTheater: def.flags.protected_theater, knownFiles, rememberFiles }),
    [def, tags, mode, canCreate, canApproveCloud, brtAuth, knownFiles, rememberFiles],
  );

  // Buttons go through the command registry (the focused pane's commands); a button of a pane that is
  // not the focused one (e.g. a second group) calls its own form directly.
  const direct: Record<string, () => unknown> = {
    save: () => api.current.save(),
    reset: () => api.current.reset(),
    cancel: () => api.current.cancel(),
    continue: () => api.current.next(),
    previous: () => api.current.previous(),
    toggleSteps: () => api.current.toggleView(),
  };
  const runCommand = (op: string) => {
    const id = `${paneKind}.${op}`;
    const cmd = commands.get(id);
    const c = commands.context();
    if (cmd && (!cmd.when || cmd.when(c)) && c.activePane?.params.id === paneParams.id) void commands.execute(id, undefined, 'button').catch(() => undefined);
    else void direct[op]?.();
  };
  const { errors } = useFormState({ control });
  const stepHasError = (n: StepNumber) => Object.keys(flattenErrors(errors as FieldErrors)).some((p) => stepOfField(p) === n);

  const section = (n: StepNumber) => {
    const body = n === 1 ? <StepDetails onTypeChange={onTypeChange} /> : n === 2 ? <StepType type={type} /> : <StepTags />;
    return (
      <section
        key={n}
        ref={(el) => {
          stepRefs.current[n] = el;
        }}
        aria-labelledby={`action-step-${n}-title`}
        className="flex flex-col gap-3"
        data-step={n}
      >
        <h3 id={`action-step-${n}-title`} className="text-sm font-semibold">
          {n}. {STEPS[n - 1]!.title}
        </h3>
        {body}
      </section>
    );
  };

  return (
    <FormEnvContext.Provider value={env}>
      <FormProvider {...form}>
        <form
          noValidate
          aria-label={title}
          className="mx-auto flex max-w-6xl flex-col gap-4 p-4"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <header className="flex flex-wrap items-center gap-2 border-b border-line pb-3">
            <h2 className="text-lg font-semibold">{title}</h2>
            {mode === 'edit' && loaded && (
              <span className="rounded bg-raised px-1.5 py-0.5 text-2xs text-muted">
                version {loaded.version}
                {loaded.approved ? ' · approved' : ' · not approved'}
              </span>
            )}
            {mode === 'clone' && loaded && <span className="rounded bg-raised px-1.5 py-0.5 text-2xs text-muted">copy of {loaded.vid}</span>}
            <div className="flex-1" />
            <Button variant="ghost" onClick={() => runCommand('toggleSteps')} aria-pressed={view === 'all'}>
              {view === 'wizard' ? 'Show All Steps' : 'Show As Wizard'}
            </Button>
            {canCreate && (
              <div role="group" aria-label="Form actions" className="flex gap-2">
                <Button onClick={() => runCommand('cancel')}>Cancel</Button>
                <Button onClick={() => runCommand('reset')} disabled={!filled || saving}>
                  Reset
                </Button>
                <Button variant="primary" onClick={() => runCommand('save')} disabled={!filled || saving} aria-keyshortcuts="Control+S">
                  {saving ? 'Saving…' : 'Save'}
                </Button>
              </div>
            )}
          </header>

          {!canCreate && (
            <p role="status" className="rounded border border-line bg-raised px-3 py-2 text-sm">
              You can view this Action; changing Actions needs the create Action permission.
            </p>
          )}
          {mode === 'edit' && loaded?.vendor && (
            <p role="status" className="rounded border border-line bg-raised px-3 py-2 text-sm">
              {loaded.vid} is vendor content: only users with brt_auth can save changes to it. Clone it to make your own version.
            </p>
          )}
          {draftOffer && (
            <div role="status" className="flex flex-wrap items-center gap-2 rounded border border-accent/60 bg-accent/10 px-3 py-2 text-sm" data-testid="draft-offer">
              <span className="flex-1">Unsaved changes to this Action from {formatDistanceToNow(draftOffer.savedAt, { addSuffix: true })} were kept.</span>
              <Button variant="primary" onClick={restoreDraft}>
                Restore Draft
              </Button>
              <Button onClick={discardDraft}>Discard Draft</Button>
            </div>
          )}
          <ErrorSummary goTo={goTo} />

          <nav aria-label="Steps" className="flex items-center gap-2">
            {STEPS.map((s, i) => {
              const current = view === 'wizard' && step === s.n;
              const bad = stepHasError(s.n);
              return (
                <div key={s.n} className="flex items-center gap-2">
                  {i > 0 && <span className="h-px w-6 bg-line" aria-hidden="true" />}
                  <button
                    type="button"
                    aria-current={current ? 'step' : undefined}
                    onClick={() => goTo(s.n)}
                    className={`flex items-center gap-1.5 rounded px-2 py-1 text-sm ${current ? 'bg-accent/15 font-semibold text-ink' : 'text-muted hover:text-ink'}`}
                  >
                    <span className={`flex h-5 w-5 items-center justify-center rounded-full border text-2xs ${bad ? 'border-red-500 text-red-500' : current ? 'border-accent text-accent' : 'border-line'}`}>{s.n}</span>
                    {s.title}
                    {bad && <span className="sr-only"> (has errors)</span>}
                  </button>
                </div>
              );
            })}
          </nav>

          {view === 'wizard' ? section(step) : STEPS.map((s) => section(s.n))}

          {view === 'wizard' && (
            <footer className="flex justify-between border-t border-line pt-3">
              <Button onClick={() => runCommand('previous')} disabled={step === 1}>
                Previous
              </Button>
              {step < 3 ? (
                <Button variant="primary" onClick={() => runCommand('continue')}>
                  Continue
                </Button>
              ) : canCreate ? (
                <Button variant="primary" onClick={() => runCommand('save')} disabled={!filled || saving}>
                  {saving ? 'Saving…' : 'Save'}
                </Button>
              ) : (
                <span />
              )}
            </footer>
          )}
        </form>
        <CloudSaveModal open={cloudOpen} restrictions={cloudOpen ? restrictionsOfAttached() : []} canApprove={canApproveCloud} saving={saving} onClose={() => setCloudOpen(false)} onSave={(approveNow) => void submit(approveNow)} />
      </FormProvider>
    </FormEnvContext.Provider>
  );
}
