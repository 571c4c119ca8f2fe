import { useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LIBRARY_LIMITS } from '@/api/contracts/library';
import { ApiError } from '@/api/http';
import { ACTION_TYPE_LABELS } from '@/api/contracts/vocabulary';
import { useDebounced } from '@/ui/use-debounced';
import { searchActions } from './api';
import type { EditorAction } from './editor-store';

/**
 * Adds Actions from a library search inside the editor: type, ArrowDown/ArrowUp through the matches,
 * Enter adds the highlighted one to the chosen step (or to a new step).
 */
export function AddAction({ steps, onAdd }: { steps: number; onAdd: (action: EditorAction, step: number) => void }) {
  const [text, setText] = useState('');
  const [to, setTo] = useState(steps);
  const [active, setActive] = useState(0);
  const search = useDebounced(text.trim(), LIBRARY_LIMITS.searchDebounceMs);
  const q = useQuery({
    queryKey: ['simulations', 'add-action', search],
    queryFn: ({ signal }) => searchActions(search, signal),
    enabled: search.length > 0,
    staleTime: 30_000,
  });
  const matches = (q.data ?? []).filter((a) => !a.disabled && !a.decommissioned);
  const target = Math.min(to, steps);
  const add = (a: EditorAction) => {
    onAdd({ id: a.id, vid: a.vid, name: a.name, action_type: a.action_type }, target);
    if (target === steps) setTo(steps + 1);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(0, Math.min(matches.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const a = matches[active];
      if (a) add(a);
    }
  };
  const listId = 'sim-editor-add-action-list';
  return (
    <div className="flex min-w-64 flex-1 flex-col gap-1">
      <div className="flex items-end gap-2">
        <label className="flex flex-1 flex-col gap-1">
          Add Action
          <input
            role="combobox"
            aria-expanded={matches.length > 0}
            aria-controls={listId}
            aria-activedescendant={matches[active] ? `${listId}-${matches[active].id}` : undefined}
            className="rounded border border-line bg-panel px-2 py-1"
            placeholder="Search the Action library"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKey}
          />
        </label>
        <label className="flex flex-col gap-1">
          to
          <select aria-label="Add to" className="rounded border border-line bg-panel px-2 py-1" value={target} onChange={(e) => setTo(Number(e.target.value))}>
            {Array.from({ length: steps }, (_, i) => (
              <option key={i} value={i}>Step {i + 1}</option>
            ))}
            <option value={steps}>A new step</option>
          </select>
        </label>
      </div>
      {search && q.isPending && <p role="status" className="text-2xs text-muted">Searching…</p>}
      {q.error && <p role="alert" className="text-2xs text-red-500">{q.error instanceof ApiError ? q.error.message : 'The Action library could not be searched.'}</p>}
      {search && q.isSuccess && matches.length === 0 && <p role="status" className="text-2xs text-muted">No Actions match "{search}".</p>}
      {matches.length > 0 && (
        <ul id={listId} role="listbox" aria-label="Matching Actions" className="max-h-56 overflow-auto rounded border border-line">
          {matches.map((a, i) => (
            <li
              key={a.id}
              id={`${listId}-${a.id}`}
              role="option"
              aria-selected={i === active}
              className={`flex cursor-pointer items-center gap-2 px-2 py-0.5 ${i === active ? 'bg-accent/20' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => add(a)}
            >
              <span className="font-mono text-2xs text-accent">{a.vid}</span>
              <span className="min-w-0 flex-1 truncate">{a.name}</span>
              <span className="text-2xs text-muted">{ACTION_TYPE_LABELS[a.action_type] ?? a.action_type}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
