import { useRef, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { DRAFT_NAME_MAX } from '@/api/contracts/simulation-draft';
import { SIMULATION_TYPES, SIMULATION_TYPE_LABELS } from '@/api/contracts/simulations';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { focusAfterFrame } from '@/ui/focus-after-frame';
import { setDraftType } from './draft-commands';
import { draftStore, moveStep, restoreFromTrash, trashedName, trashStep } from './draft-store';

const save = () => void commands.execute('actions.saveDraft', undefined, 'button').catch(() => undefined);

/** The queue page (JOB-018): the simulation draft from 'Add all', to rename, retype, reorder, trim and save. */
export function QueuePane() {
  const snap = useSnapshot(draftStore);
  const list = useRef<HTMLOListElement>(null);
  const d = snap.draft;
  if (!d) return <p className="p-4 text-sm text-muted">No simulation draft: select Actions in the Action library and choose Add all.</p>;
  const draft = draftStore.draft;
  if (!draft) return null;

  const move = (index: number, step: 1 | -1) => {
    const to = moveStep(draft, index, step);
    focusAfterFrame(list, `:scope > [data-step]:nth-child(${to + 1})`);
  };
  const onKey = (index: number) => (e: KeyboardEvent<HTMLLIElement>) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    move(index, e.key === 'ArrowUp' ? -1 : 1);
  };

  return (
    <div className="flex h-full flex-col gap-3 overflow-auto p-4 text-sm" aria-label="Simulation draft">
      <label className="flex flex-col gap-1">
        Name
        <input className="rounded border border-line bg-panel px-2 py-1" maxLength={DRAFT_NAME_MAX} value={d.sim_name} onChange={(e) => (draft.sim_name = e.target.value)} />
      </label>
      <p>{d.sim_desc}</p>
      <fieldset className="flex gap-3">
        <legend className="sr-only">Type</legend>
        {SIMULATION_TYPES.map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input type="radio" name="draft-type" checked={d.sim_type === t} onChange={() => setDraftType(t)} />
            {SIMULATION_TYPE_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <h2 className="font-semibold">Steps</h2>
      <ol ref={list} aria-label="Steps" className="flex flex-col gap-1">
        {d.steps.map((ids, i) => (
          <li key={`${ids.join('-')}`} data-step tabIndex={0} onKeyDown={onKey(i)} aria-label={`Step ${i + 1}: ${d.step_names[i] ?? ''}`} className="flex items-center gap-2 rounded border border-line px-2 py-1 focus:outline focus:outline-accent">
            <span className="flex-1">{i + 1}. {d.step_names[i]}</span>
            <Button aria-label={`Move ${d.step_names[i] ?? ''} up`} disabled={i === 0} onClick={() => move(i, -1)}>↑</Button>
            <Button aria-label={`Move ${d.step_names[i] ?? ''} down`} disabled={i === d.steps.length - 1} onClick={() => move(i, 1)}>↓</Button>
            <Button aria-label={`Move ${d.step_names[i] ?? ''} to trash`} onClick={() => trashStep(draft, i)}>Trash</Button>
          </li>
        ))}
      </ol>
      {d.trash.length > 0 && (
        <>
          <h2 className="font-semibold">Trash</h2>
          <ul aria-label="Trash" className="flex flex-col gap-1">
            {d.trash.map((id) => (
              <li key={id} className="flex items-center gap-2">
                <span className="flex-1">{trashedName(id)}</span>
                <Button onClick={() => restoreFromTrash(draft, id)}>Restore</Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <div>
        <Button variant="primary" disabled={!d.sim_name.trim() || !d.steps.length} onClick={save}>Save</Button>
      </div>
    </div>
  );
}
