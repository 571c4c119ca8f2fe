/**
 * What an open Action form offers its pane-local commands (Save, Reset, Continue...), and what the
 * PCAP upload step offers Upload Capture…: `ctx.pane(actionFormPane)`, `ctx.pane(pcapUploadPane)`.
 */
import { definePaneContext } from '@/commands/pane-contexts';
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

export const actionFormPane = definePaneContext<FormController>('action-form.form');

/** The PCAP upload step's file picker (null while the form is read-only). */
export interface PcapUploadApi {
  openPicker: (() => void) | null;
}

export const pcapUploadPane = definePaneContext<PcapUploadApi>('action-form.pcap-upload');
