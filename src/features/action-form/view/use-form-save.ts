/**
 * Saving the form: the type is chosen and the fields valid (else the first step with an error is
 * shown), a cloud Action asks whether to approve it first, then create or update with the spec's
 * flash texts; server errors land on their fields.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { MSG, type FormDefinition, type LoadedAction, type SaveAnswer } from '@/api/contracts/action-form';
import { ApiError } from '@/api/http';
import { flash } from '@/ui/toasts';
import { createAction, createPcapAction, updateAction } from '../api';
import { serverErrorsToFields, toPayload, type ActionFormValues, type FormMode, type StepNumber } from '../form-model';
import type { SaveResult } from '../pane-context';
import { flattenErrors } from './form-errors';

export interface FormSave {
  saving: boolean;
  /** The cloud save question is open. */
  cloudOpen: boolean;
  closeCloud(): void;
  save(): Promise<SaveResult>;
  /** Sends the form (a cloud Action: approved now or not). */
  submit(approveNow: boolean): Promise<SaveResult>;
}

export function useFormSave(opts: {
  form: UseFormReturn<ActionFormValues>;
  def: FormDefinition;
  mode: FormMode;
  loaded: LoadedAction | null;
  readOnly: boolean;
  goTo(step: StepNumber): void;
  showFirstError(paths: string[]): void;
  /** After a save: drafts dropped, the pane closed. */
  /** After a save: the Action saved (its VID is what the library then selects). */
  onSaved(saved: { id: number; vid: string }): void;
}): FormSave {
  const { form, def, mode, loaded, readOnly, goTo, showFirstError, onSaved } = opts;
  const { getValues, setError } = form;
  const brtAuth = def.flags.brt_auth;
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [cloudOpen, setCloudOpen] = useState(false);

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
      setCloudOpen(false);
      flash('notice', answer.notice);
      void queryClient.invalidateQueries();
      onSaved({ id: answer.id, vid: answer.vid });
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

  return { saving, cloudOpen, closeCloud: () => setCloudOpen(false), save, submit };
}
