/**
 * Unsaved form state kept in browser storage per user and per Action (new, edit:{id}, clone:{id}), so
 * a reload, a closed pane or a crash never loses a draft. Dropped after a save, a Cancel or a Discard.
 */
import type { FileDisplay } from '@/api/contracts/action-form';
import type { ActionFormValues, StepNumber } from './form-model';

export const DRAFT_VERSION = 1;
const PREFIX = 'vigil.actionDraft.v1';

export interface Draft {
  v: typeof DRAFT_VERSION;
  values: ActionFormValues;
  knownFiles: FileDisplay[];
  savedAt: number;
  /** The Action's version the draft was based on (edit). */
  baseVersion: number | null;
  step: StepNumber;
}

export const draftKey = (userId: number, slot: string) => `${PREFIX}:${userId}:${slot}`;

export function readDraft(storage: Storage, key: string): Draft | null {
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    if (d.v !== DRAFT_VERSION || !d.values || typeof d.values !== 'object' || typeof d.savedAt !== 'number') return null;
    return { v: DRAFT_VERSION, values: d.values, knownFiles: Array.isArray(d.knownFiles) ? d.knownFiles : [], savedAt: d.savedAt, baseVersion: d.baseVersion ?? null, step: d.step ?? 1 };
  } catch {
    return null;
  }
}

export function writeDraft(storage: Storage, key: string, draft: Omit<Draft, 'v'>): boolean {
  try {
    storage.setItem(key, JSON.stringify({ v: DRAFT_VERSION, ...draft }));
    return true;
  } catch {
    // Storage full or disabled: the form still works, only the draft is not kept.
    return false;
  }
}

export function dropDraft(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // nothing to drop
  }
}

/** Stable JSON for comparing form values (key order independent). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
