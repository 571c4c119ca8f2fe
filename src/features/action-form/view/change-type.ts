/** Choosing another Action type: the old type's fields back to defaults, the new type's defaults and dimension defaults filled in. */
import type { UseFormReturn } from 'react-hook-form';
import { defaultTypeFields, typeKey, type FormDefinition } from '@/api/contracts/action-form';
import type { ActionType } from '@/api/contracts/vocabulary';
import { applyDimensionDefaults, type ActionFormValues, type FormMode } from '../form-model';

export function changeType(form: Pick<UseFormReturn<ActionFormValues>, 'getValues' | 'setValue' | 'clearErrors'>, next: ActionType | '', mode: FormMode, def: FormDefinition): void {
  const { getValues, setValue, clearErrors } = form;
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
}
