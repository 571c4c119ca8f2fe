import { createContext, useContext } from 'react';
import type { FileDisplay, FormDefinition, TagOption } from '@/api/contracts/action-form';
import type { FormMode } from './form-model';

/** What every part of the form needs besides its values: the definition, flags, permissions, file display data. */
export interface FormEnv {
  def: FormDefinition;
  tags: TagOption[];
  mode: FormMode;
  /** create_action_permission: without it the form is read-only (no header buttons). */
  canCreate: boolean;
  /** approve_action_permission (with approve and cloudApproval for cloud): Approve Now. */
  canApproveCloud: boolean;
  brtAuth: boolean;
  protectedTheater: boolean;
  /** Display data of files the form knows (attached, listed or uploaded), by id. */
  knownFiles: Record<number, FileDisplay>;
  rememberFiles(files: FileDisplay[]): void;
}

export const FormEnvContext = createContext<FormEnv | null>(null);

export function useFormEnv(): FormEnv {
  const env = useContext(FormEnvContext);
  if (!env) throw new Error('useFormEnv must be used inside the Action form');
  return env;
}
