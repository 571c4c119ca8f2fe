/** The fuzzy action picker of 'Edit Action…' and 'Clone Action…': type part of a name or VID, Enter opens. */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { type PickerAction } from '@/api/contracts/action-form';
import { fuzzyScore } from '@/commands/fuzzy';
import { commands } from '@/commands/registry';
import { pickerQuery } from './api';
import { pickerStore } from './commands';
import { ACTION_TYPE_LABELS } from '@/api/contracts/vocabulary';

/** Actions matching the query, best first (VID and name both count). */
export function rankActions(actions: readonly PickerAction[], query: string, limit = 50): PickerAction[] {
  const q = query.trim();
  if (!q) return actions.slice(0, limit);
  return actions
    .map((a) => ({ a, score: Math.max(fuzzyScore(q, a.vid) ?? -Infinity, fuzzyScore(q, a.name) ?? -Infinity, fuzzyScore(q, `${a.vid} ${a.name}`) ?? -Infinity) }))
    .filter((r) => r.score > -Infinity)
    .sort((x, y) => y.score - x.score)
    .slice(0, limit)
    .map((r) => r.a);
}

function PickerBody({ purpose, onClose }: { purpose: 'edit' | 'clone'; onClose(): void }) {
  const { data, isLoading, error } = useQuery(pickerQuery());
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const rows = useMemo(() => rankActions(data ?? [], query), [data, query]);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    document.getElementById(`action-picker-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);
  const choose = (a: PickerAction | undefined) => {
    if (!a) return;
    onClose();
    void commands.execute(purpose === 'edit' ? 'actionForm.edit' : 'actionForm.clone', { action: String(a.id) }, 'palette').catch(() => undefined);
  };
  return (
    <>
      <input
        autoFocus
        role="combobox"
        aria-expanded="true"
        aria-controls="action-picker-list"
        aria-activedescendant={rows[active] ? `action-picker-${active}` : undefined}
        aria-label={purpose === 'edit' ? 'Action to edit' : 'Action to clone'}
        placeholder="Type a name or VID"
        className="w-full border-b border-line bg-transparent px-4 py-3 text-base outline-none"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((i) => Math.min(rows.length - 1, i + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(rows[active]);
          }
        }}
      />
      <ul id="action-picker-list" role="listbox" aria-label="Actions" className="max-h-[50vh] overflow-auto py-1">
        {isLoading && <li className="px-4 py-2 text-muted">Loading Actions…</li>}
        {error && <li className="px-4 py-2 text-red-400">{error.message}</li>}
        {data && rows.length === 0 && <li className="px-4 py-2 text-muted">No Action matches.</li>}
        {rows.map((a, i) => (
          <li
            key={a.id}
            id={`action-picker-${i}`}
            role="option"
            aria-selected={i === active}
            className={`flex cursor-pointer items-center gap-3 px-4 py-1.5 text-sm ${i === active ? 'bg-accent/20' : ''}`}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(a)}
          >
            <span className="w-24 shrink-0 font-mono text-xs text-muted">{a.vid}</span>
            <span className="flex-1 truncate">{a.name}</span>
            <span className="text-2xs text-muted">{ACTION_TYPE_LABELS[a.action_type]}</span>
            {a.vendor && purpose === 'edit' && <span className="rounded bg-raised px-1 text-2xs text-muted">vendor</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

export function ActionPicker() {
  const snap = useSnapshot(pickerStore);
  const close = () => {
    pickerStore.open = false;
  };
  return (
    <Dialog open={snap.open} onClose={close} className="relative z-[1060]">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-[12vh]">
        <DialogPanel className="w-full max-w-2xl overflow-hidden rounded-lg border border-line bg-panel text-ink shadow-2xl">
          <DialogTitle className="sr-only">{snap.purpose === 'edit' ? 'Edit Action' : 'Clone Action'}</DialogTitle>
          {snap.open && <PickerBody purpose={snap.purpose} onClose={close} />}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
