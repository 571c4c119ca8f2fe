/**
 * The form's draft in browser storage: offered back when the form opens (Restore/Discard), written
 * 400 ms after each change and on unload, dropped when it equals the loaded values or after a save or
 * a Cancel.
 */
import { formatDistanceToNow } from 'date-fns';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { FileDisplay, LoadedAction } from '@/api/contracts/action-form';
import { flash } from '@/ui/toasts';
import { dropDraft, readDraft, stableJson, writeDraft, type Draft } from '../drafts';
import type { ActionFormValues, StepNumber } from '../form-model';

export interface FormDrafts {
  /** The draft offered back when the form opened, until restored or discarded. */
  offer: Draft | null;
  restore(): void;
  /** Drops the stored draft and the offer (Discard Draft, a reset). */
  discard(): void;
  /** The form is done (saved or cancelled): nothing more is written, and the stored draft is dropped. */
  settle(): void;
}

export function useFormDrafts(opts: {
  form: UseFormReturn<ActionFormValues>;
  storage: Storage;
  draftKey: string;
  initial: ActionFormValues;
  /** The values a reset returns to (a draft equal to them is dropped). */
  baseline: { readonly current: { values: ActionFormValues } };
  knownFiles: { readonly current: Record<number, FileDisplay> };
  rememberFiles(files: FileDisplay[]): void;
  loaded: LoadedAction | null;
  readOnly: boolean;
  step: { readonly current: StepNumber };
  setStep(step: StepNumber): void;
}): FormDrafts {
  const { form, storage, draftKey, initial, baseline, knownFiles, rememberFiles, loaded, readOnly, step, setStep } = opts;
  const { getValues, reset } = form;
  const [offer, setOffer] = useState<Draft | null>(null);
  const offerRef = useRef<Draft | null>(null);
  offerRef.current = offer;

  useEffect(() => {
    const d = readDraft(storage, draftKey);
    if (!d) return;
    if (stableJson(d.values) === stableJson(initial)) {
      dropDraft(storage, draftKey);
      return;
    }
    setOffer(d);
    flash('info', `Unsaved changes to this Action from ${formatDistanceToNow(d.savedAt, { addSuffix: true })} were kept. Restore them from the notice at the top of the form.`);
    // Read once, when the form opens.
  }, []);

  const writeNow = useCallback(() => {
    if (offerRef.current || readOnly) return;
    const values = getValues();
    if (stableJson(values) === stableJson(baseline.current.values)) dropDraft(storage, draftKey);
    else writeDraft(storage, draftKey, { values, knownFiles: Object.values(knownFiles.current), savedAt: Date.now(), baseVersion: loaded?.version ?? null, step: step.current });
  }, [getValues, storage, draftKey, loaded, readOnly, baseline, knownFiles, step]);
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

  const discard = () => {
    dropDraft(storage, draftKey);
    setOffer(null);
  };
  return {
    offer,
    restore: () => {
      const d = offer;
      if (!d) return;
      rememberFiles(d.knownFiles);
      reset(d.values, { keepDefaultValues: true });
      setStep(d.step);
      setOffer(null);
      if (loaded && d.baseVersion !== null && d.baseVersion !== loaded.version) {
        flash('info', `This draft was made on version ${d.baseVersion}; the Action is now at version ${loaded.version}. Saving replaces the newer version.`);
      } else flash('notice', 'Your unsaved changes were restored.');
    },
    discard,
    settle: () => {
      saved.current = true;
      if (pending.current) clearTimeout(pending.current);
      dropDraft(storage, draftKey);
    },
  };
}
