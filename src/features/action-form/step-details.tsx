/** Step 1: name, action type, VID override (brt_auth), description with a Markdown preview. */
import { useState } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { ErrorText, TextAreaInput, TextInput, inputClass, useFieldError, requiredLabelClass } from './controls';
import { useFormEnv } from './form-env';
import type { ActionFormValues } from './form-model';
import { Markdown } from '@/ui/markdown';
import { type ActionType } from '@/api/contracts/vocabulary';

export function StepDetails({ onTypeChange }: { onTypeChange(type: ActionType | ''): void }) {
  const env = useFormEnv();
  const { control } = useFormContext<ActionFormValues>();
  const desc = useWatch<ActionFormValues, 'sim_action.desc'>({ name: 'sim_action.desc' });
  const typeError = useFieldError('sim_action.action_type');
  const [preview, setPreview] = useState(false);
  const readOnly = !env.canCreate;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
      <TextInput name="sim_action.name" label="Name" required disabled={readOnly} className="md:col-span-2" autoFocus={env.mode !== 'edit'} />
      <div className="flex flex-col gap-1">
        <label htmlFor="action-type-select" className={requiredLabelClass}>
          Action Type
        </label>
        <Controller
          control={control}
          name="sim_action.action_type"
          render={({ field }) => (
            <select
              id="action-type-select"
              ref={field.ref}
              disabled={readOnly}
              aria-invalid={!!typeError}
              aria-describedby={typeError ? 'action-type-error' : undefined}
              className={inputClass(!!typeError)}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(e) => onTypeChange(e.target.value as ActionType | '')}
            >
              <option value="">Select an Action Type</option>
              {env.def.action_types.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        />
        <ErrorText id="action-type-error" message={typeError} />
      </div>
      {env.brtAuth ? (
        <TextInput name="system_override.vid" label="VID Override" placeholder="A000-1234" hint="Leave empty to let the director assign the next VID." disabled={readOnly} mono />
      ) : (
        <div />
      )}
      <div className="flex flex-col gap-1 md:col-span-2">
        <TextAreaInput name="sim_action.desc" label="Description" required rows={8} disabled={readOnly} hint="Markdown: **bold**, *italic*, `code`, lists, links." />
        <div>
          <Button onClick={() => setPreview(true)} aria-label="Preview description">
            Preview
          </Button>
        </div>
      </div>
      <Modal open={preview} title="Description Preview" onClose={() => setPreview(false)} size="lg" footer={<Button variant="primary" autoFocus onClick={() => setPreview(false)}>OK</Button>}>
        <div className="max-h-[60vh] overflow-auto">
          <Markdown source={desc ?? ''} headingOffset={0} empty="Nothing to preview." className="text-sm" />
        </div>
      </Modal>
    </div>
  );
}
