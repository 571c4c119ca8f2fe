/**
 * The open forms, by pane: pane-local commands (Save, Reset, Continue...) find the focused form's
 * controller here. A controller is a plain object the form pane registers while mounted.
 */
import type { StepNumber } from './form-model';

export const FORM_PANE_KINDS = ['action-new', 'action-edit', 'action-clone'] as const;
export type FormPaneKind = (typeof FORM_PANE_KINDS)[number];

export interface SaveResult {
  ok: boolean;
  id?: number;
  vid?: string;
}

export interface FormController {
  save(): Promise<SaveResult>;
  reset(): void;
  cancel(): Promise<void>;
  next(): void;
  previous(): void;
  goTo(step: StepNumber): void;
  toggleView(): void;
  fillTestValues(): Promise<void>;
  /** Save and Reset are enabled (name, description and type filled, no save running). */
  canSave(): boolean;
  canEdit(): boolean;
}

const controllers = new Map<string, FormController>();

export const controllerKey = (kind: string, params: Record<string, string>) => (kind === 'action-new' ? kind : `${kind}:${params.id ?? ''}`);

export function registerController(key: string, c: FormController): () => void {
  controllers.set(key, c);
  return () => {
    if (controllers.get(key) === c) controllers.delete(key);
  };
}

export function controllerFor(pane: { kind: string; params: Record<string, string> } | null): FormController | undefined {
  return pane ? controllers.get(controllerKey(pane.kind, pane.params)) : undefined;
}
