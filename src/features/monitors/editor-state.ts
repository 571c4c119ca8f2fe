/**
 * The monitor editor's draft: the body being edited plus the names of its Actions, kept in the tab's
 * session storage under the pane's key on every change, so a reload never loses it (cleared on save).
 * Pure helpers: the flat step list (one marker per action), validation errors by field path.
 */
import * as yup from 'yup';
import type { RunAsMode } from '@/api/contracts/run-as-selection';
import { monitorBodySchema, type ActionInfo, type ActionSummaryEntry, type MonitorBody, type StepOutcome } from '@/api/contracts/monitors';

export interface EditorDraft {
  /** The monitor being edited, or null for a new one. */
  id: number | null;
  body: MonitorBody;
  info: Record<string, ActionInfo>;
  /** The latest outcome and drift of each saved step, its monitor action and latest job action, by "group:action" position. */
  outcomes: Record<string, { outcome: StepOutcome | null; drift: boolean; monitor_action_id?: number; job_action_id?: number | null }>;
  /** The stored first run (an unchanged past first run is accepted on update). */
  storedRuntime: string | null;
  /** MON-066: the user's own Interactive Session tick of each group, per mode. */
  sessionTicks?: Record<number, Partial<Record<RunAsMode, boolean>>>;
}

const KEY = (paneKey: string) => `vigil.monitor-draft.v1:${paneKey}`;

export function loadDraft(paneKey: string): EditorDraft | null {
  try {
    const raw = sessionStorage.getItem(KEY(paneKey));
    return raw ? (JSON.parse(raw) as EditorDraft) : null;
  } catch {
    return null;
  }
}
export function saveDraft(paneKey: string, draft: EditorDraft): void {
  try {
    sessionStorage.setItem(KEY(paneKey), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft lives on in memory.
  }
}
export function clearDraft(paneKey: string): void {
  sessionStorage.removeItem(KEY(paneKey));
}

export interface FlatStep {
  /** 0-based index in the strip. */
  index: number;
  group: number;
  action: number;
  name: string;
  groupStart: boolean;
  groupEnd: boolean;
}

export function flatSteps(d: EditorDraft): FlatStep[] {
  const out: FlatStep[] = [];
  d.body.steps.forEach((g, gi) =>
    g.actions.forEach((a, ai) =>
      out.push({ index: out.length, group: gi, action: ai, name: d.info[String(a.action_id)]?.name ?? `Action ${a.action_id}`, groupStart: ai === 0, groupEnd: ai === g.actions.length - 1 }),
    ),
  );
  return out;
}

/** Every message of the shared contract, by field path ('steps[0].actions[1].expected_detected'). */
export function validateDraft(d: EditorDraft, now = Date.now()): Record<string, string[]> {
  try {
    monitorBodySchema.validateSync(d.body, { abortEarly: false, context: { existingRuntime: d.storedRuntime ?? undefined, now } });
    return {};
  } catch (e) {
    if (!(e instanceof yup.ValidationError)) throw e;
    const errors: Record<string, string[]> = {};
    for (const inner of e.inner.length ? e.inner : [e]) (errors[inner.path || 'base'] ??= []).push(inner.message);
    return errors;
  }
}

/** Errors under a path prefix (a group's or an action's fields). */
export const errorsUnder = (errors: Record<string, string[]>, prefix: string) => Object.keys(errors).some((k) => k === prefix || k.startsWith(`${prefix}.`) || k.startsWith(`${prefix}[`));

/** MON-040: the summary entry of a step of the draft. */
export function summaryEntry(d: EditorDraft, s: FlatStep, active: number, hasError: boolean): ActionSummaryEntry {
  const a = d.body.steps[s.group]?.actions[s.action];
  const saved = d.outcomes[`${s.group}:${s.action}`];
  return {
    actionId: a?.action_id ?? 0,
    actionName: s.name,
    action_type: (a && d.info[String(a.action_id)]?.action_type) ?? '',
    active: s.index === active,
    hasError,
    id: s.index,
    monitor_action_id: saved?.monitor_action_id ?? null,
    job_action_id: saved?.job_action_id ?? null,
    events: a?.expected_events ?? [],
  };
}
