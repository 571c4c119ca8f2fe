import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type DragEvent, type KeyboardEvent } from 'react';
import { tagOptionsQuery } from '@/api/tag-options';
import { useSnapshot } from 'valtio';
import { DRAFT_NAME_MAX } from '@/api/contracts/simulation-draft';
import { SIMULATION_TYPES, SIMULATION_TYPE_LABELS, SIMULATION_VID_PATTERN } from '@/api/contracts/simulations';
import { ACTION_TYPE_LABELS } from '@/api/contracts/vocabulary';
import { CommandButton } from '@/commands/command-menu';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { TagEditor } from '@/ui/tag-editor';
import { AddAction } from './editor-add-action';
import { focusAfterFrame } from '@/ui/focus-after-frame';
import { addAction, addStep, addTag, removeTag, draftFrom, draftKey, draftProblems, editorStore, isDirty, moveAction, moveStep, removeAction, removeStep, type EditorDraft, type EditorMode } from './editor-store';
import { ErrorNote, useSimulation } from './simulation-view';

const field = 'rounded border border-line bg-panel px-2 py-1';
const isMove = (e: KeyboardEvent) => e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown');
const dir = (e: KeyboardEvent): 1 | -1 => (e.key === 'ArrowUp' ? -1 : 1);

/** What a drag carries: a step (its index) or an Action (step and Action index). */
type Dragged = { step: number; action?: number };
const DRAG_TYPE = 'application/x-vigil-sim-item';

/** The ordered steps, each a group of Actions: Alt+arrows move steps and Actions, Delete removes, drag and drop too. */
function StepsEditor({ d, draft }: { d: EditorDraft; draft: EditorDraft }) {
  const list = useRef<HTMLOListElement>(null);
  const focus = (selector: string) => focusAfterFrame(list, selector);
  const focusStep = (i: number) => focus(`[data-step-index="${i}"]`);
  const focusAction = (s: number, a: number) => focus(`[data-step-index="${s}"] [data-action-index="${a}"]`);

  const onStepKey = (i: number) => (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target !== e.currentTarget) return;
    if (isMove(e)) {
      e.preventDefault();
      focusStep(moveStep(draft, i, dir(e)));
    } else if (e.key === 'Delete') {
      e.preventDefault();
      removeStep(draft, i);
      focusStep(Math.min(i, draft.steps.length - 1));
    }
  };
  const onActionKey = (s: number, a: number) => (e: KeyboardEvent<HTMLLIElement>) => {
    if (isMove(e)) {
      e.preventDefault();
      e.stopPropagation();
      const to = moveAction(draft, s, a, dir(e));
      focusAction(to.step, to.action);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      e.stopPropagation();
      removeAction(draft, s, a);
      focusStep(s);
    }
  };

  const onDragStart = (item: Dragged) => (e: DragEvent) => {
    e.stopPropagation();
    e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(item));
    e.dataTransfer.effectAllowed = 'move';
  };
  const onDrop = (target: number) => (e: DragEvent) => {
    const raw = e.dataTransfer.getData(DRAG_TYPE);
    if (!raw) return;
    e.preventDefault();
    const from = JSON.parse(raw) as Dragged;
    if (from.action === undefined) {
      const [step] = draft.steps.splice(from.step, 1);
      if (step) draft.steps.splice(target, 0, step);
      return;
    }
    const [action] = draft.steps[from.step]?.actions.splice(from.action, 1) ?? [];
    if (action) draft.steps[target]?.actions.push(action);
  };

  if (!d.steps.length) return <p className="text-muted">No steps yet: add a step, then add Actions to it.</p>;
  return (
    <ol ref={list} aria-label="Steps" className="flex flex-col gap-2">
      {d.steps.map((step, i) => {
        const label = step.name || `Step ${i + 1}`;
        return (
          <li
            key={step.key}
            data-step-index={i}
            tabIndex={0}
            draggable
            onDragStart={onDragStart({ step: i })}
            onDragOver={(e) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault()}
            onDrop={onDrop(i)}
            onKeyDown={onStepKey(i)}
            aria-label={`Step ${i + 1}: ${label} (${step.actions.length} Action${step.actions.length === 1 ? '' : 's'})`}
            className="rounded border border-line/70 bg-raised/40 p-2 focus:outline focus:outline-accent"
          >
            <div className="flex items-center gap-2">
              <span className="font-mono text-2xs text-muted">{i + 1}.</span>
              <input aria-label={`Step ${i + 1} name`} className={`${field} min-w-0 flex-1`} maxLength={DRAFT_NAME_MAX} value={step.name} placeholder={`Step ${i + 1}`} onChange={(e) => (draft.steps[i]!.name = e.target.value)} />
              <Button aria-label={`Move step ${i + 1} up`} title="Alt+ArrowUp" disabled={i === 0} onClick={() => focusStep(moveStep(draft, i, -1))}>↑</Button>
              <Button aria-label={`Move step ${i + 1} down`} title="Alt+ArrowDown" disabled={i === d.steps.length - 1} onClick={() => focusStep(moveStep(draft, i, 1))}>↓</Button>
              <Button aria-label={`Remove step ${i + 1}`} title="Delete" onClick={() => removeStep(draft, i)}>Remove</Button>
            </div>
            {step.actions.length === 0 ? (
              <p className="mt-1 pl-5 text-2xs text-amber-500">No Actions in this step: add one below, move one here (Alt+arrows) or remove the step.</p>
            ) : (
              <ul aria-label={`Step ${i + 1} Actions`} className="mt-1 flex flex-col gap-0.5 pl-5">
                {step.actions.map((a, j) => (
                  <li
                    key={`${a.id}-${j}`}
                    data-action-index={j}
                    tabIndex={0}
                    draggable
                    onDragStart={onDragStart({ step: i, action: j })}
                    onKeyDown={onActionKey(i, j)}
                    aria-label={`${a.vid} ${a.name}`}
                    className="flex items-center gap-2 rounded px-1 text-sm focus:outline focus:outline-accent"
                  >
                    <span className="font-mono text-2xs text-accent">{a.vid}</span>
                    <span className="min-w-0 flex-1 truncate" title={a.name}>{a.name}</span>
                    <span className="text-2xs text-muted">{ACTION_TYPE_LABELS[a.action_type] ?? a.action_type}</span>
                    <Button variant="ghost" aria-label={`Remove ${a.name} from step ${i + 1}`} title="Delete" onClick={() => removeAction(draft, i, j)}>×</Button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The draft's tags: its user tags to add and remove (saved with the simulation), the others locked. */
function DraftTags({ d, draft }: { d: EditorDraft; draft: EditorDraft }) {
  // MON-132: the option list from the tag options call (user tags offered to simulations).
  const tagOptions = useQuery(tagOptionsQuery('user', 'simulations'));
  const tags = useMemo(() => [...(d.locked_tags ?? []).map((name) => ({ name, editable: false })), ...(d.user_tags ?? []).map((name) => ({ name, editable: true }))], [d.locked_tags, d.user_tags]);
  return (
    <div className="flex flex-col gap-1">
      <span>Tags</span>
      <TagEditor
        label="Simulation tags"
        tags={tags}
        options={tagOptions.data?.map((t) => t.name) ?? []}
        isEditable
        change={async (op, tag) => {
          if (op === 'add') addTag(draft, tag);
          else removeTag(draft, tag);
          return undefined;
        }}
      />
    </div>
  );
}

function EditorForm({ draftId, d }: { draftId: string; d: EditorDraft }) {
  const draft = editorStore.drafts[draftId];
  const nameRef = useRef<HTMLInputElement>(null);
  // Opened from a button, a hotkey or a link, the editor takes the focus (its Name field), unless a dialog holds it.
  useEffect(() => {
    const held = document.activeElement;
    const name = nameRef.current;
    if (!name || held?.closest('[role="dialog"]') || (held && name.form?.contains(held))) return;
    name.focus({ preventScroll: true });
  }, []);
  if (!draft) return null;
  const problems = draftProblems(d);
  const heading = `${d.mode === 'clone' ? 'Clone and Edit' : 'Edit'} ${SIMULATION_TYPE_LABELS[d.sim_type]} ${d.vid}`;
  return (
    <form className="flex flex-col gap-3 p-4 text-sm" aria-label={heading} onSubmit={(e) => e.preventDefault()}>
      <h2 className="text-base font-semibold">{heading}</h2>
      {d.error && (
        <div role="alert" className="flex flex-wrap items-center gap-2 rounded border border-red-500/60 bg-red-500/10 p-2">
          <span className="min-w-0 flex-1">{d.error}</span>
          {d.conflict && <CommandButton command="simulations.reloadEdit">Reload</CommandButton>}
        </div>
      )}
      <label className="flex flex-col gap-1">
        Name
        <input ref={nameRef} className={field} maxLength={DRAFT_NAME_MAX} value={d.sim_name} onChange={(e) => (draft.sim_name = e.target.value)} />
      </label>
      <label className="flex flex-col gap-1">
        Description
        <textarea className={`${field} min-h-16`} value={d.sim_desc} onChange={(e) => (draft.sim_desc = e.target.value)} />
      </label>
      <DraftTags d={d} draft={draft} />
      <fieldset className="flex gap-3">
        <legend className="sr-only">Type</legend>
        {SIMULATION_TYPES.map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input type="radio" name={`sim-type-${draftId}`} checked={d.sim_type === t} onChange={() => (draft.sim_type = t)} />
            {SIMULATION_TYPE_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <div className="flex items-center gap-2">
        <h3 className="flex-1 font-semibold">Steps</h3>
        <span className="text-2xs text-muted">Alt+↑/↓ moves a step or an Action (past a step's end it joins the next step); Delete removes.</span>
      </div>
      <StepsEditor d={d} draft={draft} />
      <div className="flex flex-wrap items-end gap-2">
        <Button onClick={() => addStep(draft)}>Add Step</Button>
        <AddAction steps={d.steps.length} onAdd={(action, step) => addAction(draft, step, action)} />
      </div>
      {problems.length > 0 && (
        <ul aria-label="Problems" className="list-disc pl-5 text-2xs text-amber-500">
          {problems.map((p) => <li key={p}>{p}</li>)}
        </ul>
      )}
      <div className="flex flex-wrap gap-2 border-t border-line pt-3">
        <CommandButton command="simulations.saveEdit" variant="primary" disabled={problems.length > 0}>
          {d.mode === 'clone' ? 'Save as New Simulation' : 'Save'}
        </CommandButton>
        <CommandButton command="simulations.undoRemove" />
        <CommandButton command="simulations.reloadEdit">Discard Changes</CommandButton>
      </div>
    </form>
  );
}

/** Creates the draft from the loaded simulation when there is none (a saved or discarded one is gone). */
function useDraft(vid: string, mode: EditorMode) {
  const key = draftKey(mode, vid);
  const q = useSimulation({ vid });
  const snap = useSnapshot(editorStore);
  const d = snap.drafts[key] as EditorDraft | undefined;
  useEffect(() => {
    if (!q.data || q.isFetching) return;
    const kept = editorStore.drafts[key];
    // A kept draft the user has not touched follows a newer version; a changed one is never replaced.
    if (!kept || (kept.version !== q.data.version && !isDirty(kept))) editorStore.drafts[key] = draftFrom(q.data, mode);
  }, [key, mode, q.data, q.isFetching, d]);
  return { key, q, d };
}

function SimulationEditor({ vid, mode }: { vid: string; mode: EditorMode }) {
  const { key, q, d } = useDraft(vid, mode);
  if (d) return <EditorForm draftId={key} d={d} />;
  if (q.error) return <div className="p-4"><ErrorNote error={q.error} /></div>;
  return <p className="p-4 text-muted" role="status">Loading Details</p>;
}

function EditorPane({ params, mode }: PaneProps & { mode: EditorMode }) {
  const vid = params.vid ?? '';
  if (!SIMULATION_VID_PATTERN.test(vid)) return <p className="p-4" role="alert">Not a valid simulation VID: {vid}</p>;
  return (
    <div className="h-full overflow-auto" data-testid="simulation-editor">
      <SimulationEditor vid={vid} mode={mode} />
    </div>
  );
}

/** Edit: /simulation/{vid}/edit. */
export const SimulationEditPane = (props: PaneProps) => <EditorPane {...props} mode="edit" />;
/** Clone and Edit: /simulation/{vid}/clone (saved as a new VID). */
export const SimulationClonePane = (props: PaneProps) => <EditorPane {...props} mode="clone" />;
