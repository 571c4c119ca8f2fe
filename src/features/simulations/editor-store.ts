import { proxy, snapshot, subscribe } from 'valtio';
import { DRAFT_NAME_MAX, type EditSimulationBody } from '@/api/contracts/simulation-draft';
import type { SimulationPreview, SimulationStepAction, SimulationType } from '@/api/contracts/simulations';

/**
 * The simulation editor's drafts (Edit, and Clone and Edit): one per simulation and mode, kept in
 * local storage on every change so nothing typed is lost (a reload, a failed save, a conflict).
 */

export type EditorMode = 'edit' | 'clone';
export type EditorAction = Pick<SimulationStepAction, 'id' | 'vid' | 'name' | 'action_type'>;

export interface EditorStep {
  /** Stable key for React and focus (not sent). */
  key: string;
  name: string;
  actions: EditorAction[];
}

/** Something removed, for Undo: a whole step, or one Action of a step. */
type Removed = { kind: 'step'; index: number; step: EditorStep } | { kind: 'action'; stepKey: string; index: number; action: EditorAction };

export interface EditorDraft {
  mode: EditorMode;
  /** The simulation opened: its id, VID and the version the save carries. */
  id: number;
  vid: string;
  version: number;
  sim_name: string;
  sim_desc: string;
  sim_type: SimulationType;
  steps: EditorStep[];
  /** The user tags the save sets (MON-107's user tags); other tags are shown locked and kept by the server. */
  user_tags: string[];
  locked_tags: string[];
  removed: Removed[];
  /** The last save's refusal (kept with the draft so a reload still shows it). */
  error: string | null;
  /** The server said the version is stale: offer to reload. */
  conflict: boolean;
  /** The draft's content as opened (see isDirty). */
  opened: string;
}

const STORAGE_KEY = 'vigil.simulation-editor';
export const draftKey = (mode: EditorMode, vid: string) => `${mode}:${vid.toUpperCase()}`;

function stored(): Record<string, EditorDraft> {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const all = raw ? (JSON.parse(raw) as Record<string, EditorDraft>) : {};
    return Object.fromEntries(Object.entries(all).filter(([, d]) => d && Array.isArray(d.steps) && typeof d.sim_name === 'string'));
  } catch {
    return {};
  }
}

export const editorStore = proxy<{ drafts: Record<string, EditorDraft> }>({ drafts: typeof localStorage === 'undefined' ? {} : stored() });
subscribe(editorStore, () => {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(snapshot(editorStore).drafts));
  } catch {
    // Storage full or disabled: drafts stay in memory.
  }
});

let keys = 0;
const nextKey = () => `s${Date.now().toString(36)}-${(keys += 1)}`;

/** A fresh draft from the simulation's preview; a clone gets 'Copy of {name}'. */
export function draftFrom(p: SimulationPreview, mode: EditorMode): EditorDraft {
  const d: EditorDraft = {
    mode,
    id: p.id,
    vid: p.vid,
    version: p.version,
    sim_name: mode === 'clone' ? `Copy of ${p.name}`.slice(0, DRAFT_NAME_MAX) : p.name,
    sim_desc: p.description,
    sim_type: p.simulation_type,
    steps: p.steps.map((s) => ({ key: nextKey(), name: s.name, actions: s.actions.map(({ id, vid, name, action_type }) => ({ id, vid, name, action_type })) })),
    user_tags: p.tags.filter((t) => t.tagType === 'user').map((t) => t.name),
    locked_tags: p.tags.filter((t) => t.tagType !== 'user').map((t) => t.name),
    removed: [],
    error: null,
    conflict: false,
    opened: '',
  };
  d.opened = contentOf(d);
  return d;
}

/** What a save would write, without the version. */
const contentOf = (d: EditorDraft) => {
  const { version: _version, ...content } = draftBody(d);
  return JSON.stringify(content);
};

/** The user changed something since the draft was opened (an untouched draft may follow newer versions). */
export const isDirty = (d: EditorDraft) => contentOf(d) !== d.opened;

/** Moves step `index` by `by` places; the new index (unchanged at the ends). */
export function moveStep(d: EditorDraft, index: number, by: 1 | -1): number {
  const to = index + by;
  if (to < 0 || to >= d.steps.length) return index;
  const [step] = d.steps.splice(index, 1);
  if (step) d.steps.splice(to, 0, step);
  return to;
}

/**
 * Moves an Action up or down within its step; past the step's first or last place it joins the end
 * of the step before or the start of the step after (grouping by keyboard). Answers where it went.
 */
export function moveAction(d: EditorDraft, stepIndex: number, actionIndex: number, by: 1 | -1): { step: number; action: number } {
  const step = d.steps[stepIndex];
  if (!step) return { step: stepIndex, action: actionIndex };
  const to = actionIndex + by;
  if (to >= 0 && to < step.actions.length) {
    const [a] = step.actions.splice(actionIndex, 1);
    if (a) step.actions.splice(to, 0, a);
    return { step: stepIndex, action: to };
  }
  const other = d.steps[stepIndex + by];
  if (!other) return { step: stepIndex, action: actionIndex };
  const [a] = step.actions.splice(actionIndex, 1);
  if (!a) return { step: stepIndex, action: actionIndex };
  if (by === -1) other.actions.push(a);
  else other.actions.unshift(a);
  return { step: stepIndex + by, action: by === -1 ? other.actions.length - 1 : 0 };
}

export function removeStep(d: EditorDraft, index: number): void {
  const [step] = d.steps.splice(index, 1);
  if (step) d.removed.push({ kind: 'step', index, step });
}

export function removeAction(d: EditorDraft, stepIndex: number, actionIndex: number): void {
  const step = d.steps[stepIndex];
  const [action] = step ? step.actions.splice(actionIndex, 1) : [];
  if (step && action) d.removed.push({ kind: 'action', stepKey: step.key, index: actionIndex, action });
}

/** Puts the last removed step or Action back where it was; its name, or null when nothing was removed. */
export function undoRemove(d: EditorDraft): string | null {
  const last = d.removed.pop();
  if (!last) return null;
  if (last.kind === 'step') {
    d.steps.splice(Math.min(last.index, d.steps.length), 0, last.step);
    return last.step.name || 'the step';
  }
  const step = d.steps.find((s) => s.key === last.stepKey) ?? d.steps[d.steps.length - 1];
  if (!step) {
    d.steps.push({ key: nextKey(), name: last.action.name, actions: [last.action] });
  } else {
    step.actions.splice(Math.min(last.index, step.actions.length), 0, last.action);
  }
  return last.action.name;
}

/** Adds an empty step at the end; its index. */
export function addStep(d: EditorDraft, name = ''): number {
  d.steps.push({ key: nextKey(), name, actions: [] });
  return d.steps.length - 1;
}

/** Adds an Action to step `stepIndex`, or to a new step named after it when the index is past the end. */
export function addAction(d: EditorDraft, stepIndex: number, action: EditorAction): number {
  const target = d.steps[stepIndex] ?? d.steps[addStep(d, action.name.slice(0, DRAFT_NAME_MAX))];
  target?.actions.push(action);
  return d.steps.indexOf(target!);
}

/** What must change before a save, in the server's words where it has them; empty when the draft can be saved. */
export function draftProblems(d: Pick<EditorDraft, 'sim_name' | 'steps'>): string[] {
  const problems: string[] = [];
  if (!d.sim_name.trim()) problems.push('Name is required.');
  if (d.sim_name.length > DRAFT_NAME_MAX) problems.push(`Name must be at most ${DRAFT_NAME_MAX} characters.`);
  if (!d.steps.length) problems.push('At least one step is required.');
  d.steps.forEach((s, i) => {
    if (!s.actions.length) problems.push(`Step ${i + 1} has no Actions: add one or remove the step.`);
    if (s.name.length > DRAFT_NAME_MAX) problems.push(`Step ${i + 1}: the name must be at most ${DRAFT_NAME_MAX} characters.`);
  });
  return problems;
}

/** The body of the edit or clone call. */
export const draftBody = (d: EditorDraft): EditSimulationBody => ({
  version: d.version,
  sim_type: d.sim_type,
  sim_name: d.sim_name.trim(),
  sim_desc: d.sim_desc,
  steps: d.steps.map((s) => s.actions.map((a) => a.id)),
  step_names: d.steps.map((s) => s.name),
  // A draft kept from before tags were edited has none: its save leaves the tags as they are.
  ...(Array.isArray(d.user_tags) ? { user_tags: d.user_tags } : {}),
});

/** Adds a user tag (any letter case counts as the same tag); false when it is there already. */
export function addTag(d: EditorDraft, name: string): boolean {
  d.user_tags ??= [];
  if (d.user_tags.some((t) => t.toLowerCase() === name.toLowerCase())) return false;
  d.user_tags.push(name);
  return true;
}

export function removeTag(d: EditorDraft, name: string): void {
  d.user_tags = (d.user_tags ?? []).filter((t) => t !== name);
}
