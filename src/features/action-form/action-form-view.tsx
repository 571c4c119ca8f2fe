/**
 * The Add/Edit Action wizard: three steps (Name/Description, Action Details, Tags/Dimensions) shown
 * as a wizard or all at once, header Cancel/Reset/Save, drafts kept in browser storage, save with the
 * spec's flash texts and server errors mapped onto fields. This component wires the pieces in
 * `view/` together: steps, drafts, saving, the pane, and the controller the form's commands call.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import type { FileDisplay, FormDefinition, LoadedAction, TagOption } from '@/api/contracts/action-form';
import { commands } from '@/commands/registry';
import { confirmDialog } from '@/ui/confirm-store';
import { usePaneContext } from '@/panes/use-pane-context';
import { type ActionType, type FileRestriction } from '@/api/contracts/vocabulary';
import { CloudSaveModal } from './cloud-save-modal';
import { stableJson } from './drafts';
import { FormEnvContext, type FormEnv } from './form-env';
import { headerFilled, nestErrors, toPayload, validatePayload, type ActionFormValues, type FormMode } from './form-model';
import { actionFormPane, type FormController, type FormPaneKind } from './pane-context';
import { changeType } from './view/change-type';
import { fillTestValues } from './view/fill-test-values';
import { ErrorSummary } from './view/form-errors';
import { FormHeader, FormNotices } from './view/form-header';
import { STEPS, StepBar, StepSection, WizardFooter } from './view/form-steps';
import { useFormDrafts } from './view/use-form-drafts';
import { useFormPane } from './view/use-form-pane';
import { useFormSave } from './view/use-form-save';
import { useSteps } from './view/use-steps';

export interface ActionFormViewProps {
  mode: FormMode;
  paneKind: FormPaneKind;
  paneParams: Record<string, string>;
  def: FormDefinition;
  tags: TagOption[];
  loaded: LoadedAction | null;
  initial: ActionFormValues;
  initialFiles: FileDisplay[];
  draftKey: string;
  storage?: Storage;
}

export function ActionFormView(props: ActionFormViewProps) {
  const { mode, def, tags, loaded, initial, initialFiles, draftKey, paneKind, paneParams } = props;
  const storage = props.storage ?? window.localStorage;
  const queryClient = useQueryClient();
  const ctx = commands.context();
  const canCreate = ctx.permissions.has('create_action_permission');
  const brtAuth = def.flags.brt_auth;
  const canApproveCloud = ctx.permissions.has('approve_action_permission') && ctx.permissions.has('approve') && ctx.permissions.has('cloudApproval');
  const readOnly = !canCreate;
  const title = mode === 'edit' && loaded ? `Edit Action ${loaded.vid}` : 'Add Action';

  // Files the form knows by id (the attached ones and those picked since), for names and restrictions.
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
  const { getValues, reset, clearErrors, control } = form;
  const sim = useWatch({ control, name: 'sim_action' });
  const type = (sim?.action_type ?? '') as ActionType | '';
  const filled = headerFilled({ sim_action: sim ?? initial.sim_action });

  const steps = useSteps(brtAuth ? 'all' : 'wizard');
  const pane = useFormPane(paneKind, paneParams, mode, loaded);
  const drafts = useFormDrafts({ form, storage, draftKey, initial, baseline, knownFiles: knownRef, rememberFiles, loaded, readOnly, step: steps.stepRef, setStep: steps.setStep });
  const saver = useFormSave({
    form,
    def,
    mode,
    loaded,
    readOnly,
    goTo: steps.goTo,
    showFirstError: steps.showFirstError,
    onSaved: (saved) => {
      drafts.settle();
      pane.close(saved.vid);
    },
  });

  const restrictionsOfAttached = (): FileRestriction[] => {
    const v = getValues();
    const ids = v.sim_action.action_type === 'cloud' ? v.cloud_action.files.map((f) => f.file_id) : [];
    return ids.map((id) => knownRef.current[id]?.file_restrictions).filter((r): r is FileRestriction => !!r);
  };

  const doReset = () => {
    reset(baseline.current.values);
    setKnownFiles(Object.fromEntries(baseline.current.files.map((f) => [f.id, f])));
    clearErrors();
    drafts.discard();
  };
  const cancel = async () => {
    const dirty = stableJson(getValues()) !== stableJson(baseline.current.values);
    if (dirty && !(await confirmDialog('Discard the unsaved changes to this Action?', { title: 'Unsaved Changes', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing' }))) return;
    drafts.settle();
    pane.close();
  };

  // ---- commands see this form through its controller ----------------------------------------
  const api = useRef<FormController>(null as unknown as FormController);
  api.current = {
    save: saver.save,
    reset: doReset,
    cancel,
    next: steps.next,
    previous: steps.previous,
    goTo: steps.goTo,
    toggleView: steps.toggleView,
    fillTestValues: async () => {
      if (!readOnly) await fillTestValues(form, def, queryClient, rememberFiles);
    },
    canSave: () => !saver.saving && headerFilled(getValues()),
    canEdit: () => canCreate,
  };
  usePaneContext(actionFormPane, api.current);

  const env: FormEnv = useMemo(
    () => ({ def, tags, mode, canCreate, canApproveCloud, brtAuth, protectedTheater: def.flags.protected_theater, knownFiles, rememberFiles }),
    [def, tags, mode, canCreate, canApproveCloud, brtAuth, knownFiles, rememberFiles],
  );
  const canSave = filled && !saver.saving;
  const section = (n: (typeof STEPS)[number]['n']) => <StepSection key={n} n={n} type={type} onTypeChange={(next) => changeType(form, next, mode, def)} stepRefs={steps.stepRefs} />;

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
          <FormHeader title={title} mode={mode} loaded={loaded} view={steps.view} canCreate={canCreate} canSave={canSave} saving={saver.saving} kind={paneKind} />
          <FormNotices canCreate={canCreate} mode={mode} loaded={loaded} draft={drafts.offer} onRestore={drafts.restore} onDiscard={drafts.discard} />
          <ErrorSummary goTo={steps.goTo} />
          <StepBar view={steps.view} step={steps.step} goTo={steps.goTo} />
          {steps.view === 'wizard' ? section(steps.step) : STEPS.map((s) => section(s.n))}
          {steps.view === 'wizard' && <WizardFooter step={steps.step} canCreate={canCreate} canSave={canSave} saving={saver.saving} kind={paneKind} />}
        </form>
        <CloudSaveModal open={saver.cloudOpen} restrictions={saver.cloudOpen ? restrictionsOfAttached() : []} canApprove={canApproveCloud} saving={saver.saving} onClose={saver.closeCloud} onSave={(approveNow) => void saver.submit(approveNow)} />
      </FormProvider>
    </FormEnvContext.Provider>
  );
}
