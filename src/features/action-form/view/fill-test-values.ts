/** The hidden 'Fill Action Form with Test Values' command: a complete Action of the chosen type (DNS when none), with library files where the type attaches some. */
import type { QueryClient } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import type { FileDisplay, FormDefinition } from '@/api/contracts/action-form';
import type { ActionType } from '@/api/contracts/vocabulary';
import { flash } from '@/ui/toasts';
import { libraryFilesQuery } from '../api';
import { loadedValues, type ActionFormValues } from '../form-model';
import { testPayload } from '../test-values';

export async function fillTestValues(form: Pick<UseFormReturn<ActionFormValues>, 'getValues' | 'reset'>, def: FormDefinition, queryClient: QueryClient, rememberFiles: (files: FileDisplay[]) => void): Promise<void> {
  const { getValues, reset } = form;
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
}
