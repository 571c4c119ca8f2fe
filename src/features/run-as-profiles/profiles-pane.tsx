import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { CommandButton } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { Modal } from '@/ui/modal';
import { useProfiles } from './api';
import { ProfileForm } from './profile-form';
import { profilesStore } from './store';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** /action_user_profiles: the run-as user profiles; arrows move the selection, Enter edits, Delete deletes. */
export function ProfilesPane() {
  const { data: profiles, isLoading, error, refetch } = useProfiles();
  const snap = useSnapshot(profilesStore);
  const rowRefs = useRef(new Map<number, HTMLTableRowElement>());
  const editing = typeof snap.form === 'number' ? (profiles?.find((p) => p.id === snap.form) ?? null) : null;

  useEffect(() => {
    // Arrow keys move the selection; keyboard focus follows it while it is inside the table.
    const row = snap.selectedId !== null ? rowRefs.current.get(snap.selectedId) : undefined;
    if (row && row.closest('table')?.contains(document.activeElement) && document.activeElement !== row) row.focus();
  }, [snap.selectedId]);

  const onKey = (e: KeyboardEvent) => {
    if (!profiles?.length) return;
    const i = Math.max(0, profiles.findIndex((p) => p.id === snap.selectedId));
    const go = (j: number) => {
      const p = profiles[Math.min(profiles.length - 1, Math.max(0, j))];
      if (p) profilesStore.selectedId = p.id;
      e.preventDefault();
    };
    if (e.key === 'ArrowDown') go(i + 1);
    else if (e.key === 'ArrowUp') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(profiles.length - 1);
    else if (e.key === 'Enter' || e.key === 'Delete') {
      e.preventDefault();
      void commands.execute(e.key === 'Enter' ? 'runAs.edit' : 'runAs.delete', {}, 'hotkey').catch(() => undefined);
    }
  };

  return (
    <div className="flex flex-col gap-3 p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Run-as User Profiles</h2>
        <div className="flex gap-1.5" role="toolbar" aria-label="Run-as user profiles">
          <CommandButton command="runAs.create" variant="primary" />
          <CommandButton command="runAs.edit" args={{}} disabled={snap.selectedId === null} />
          <CommandButton command="runAs.delete" args={{}} variant="danger" disabled={snap.selectedId === null} />
        </div>
      </div>
      <p className="text-xs text-muted">A host_cli Action with a run-as user profile runs its commands as that account on the actor; without one it runs as System (the actor's own account).</p>
      {isLoading && <p className="text-muted">Loading run-as user profiles…</p>}
      {error && (
        <div role="alert" className="flex items-center gap-2">
          Could not load the run-as user profiles: {error.message}
          <button type="button" className="underline" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      )}
      {profiles && profiles.length === 0 && <p className="text-muted">No run-as user profiles yet. Actions run as System until you add one.</p>}
      {profiles && profiles.length > 0 && (
        <table className="w-full text-left text-sm" role="grid" aria-label="Run-as user profiles" onKeyDown={onKey}>
          <thead className="border-b border-line text-2xs text-muted uppercase">
            <tr>
              <th className="py-1 pr-3">Friendly name</th>
              <th className="py-1 pr-3">Username</th>
              <th className="py-1 pr-3">Password</th>
              <th className="py-1 pr-3">Actions</th>
              <th className="py-1 pr-3">Updated</th>
            </tr>
          </thead>
          <tbody>
            {profiles.map((p) => {
              const selected = p.id === snap.selectedId;
              return (
                <tr
                  key={p.id}
                  ref={(el) => void (el ? rowRefs.current.set(p.id, el) : rowRefs.current.delete(p.id))}
                  aria-selected={selected}
                  tabIndex={selected ? 0 : -1}
                  onClick={() => (profilesStore.selectedId = p.id)}
                  onDoubleClick={() => void commands.execute('runAs.edit', {}, 'button').catch(() => undefined)}
                  className={`cursor-default border-b border-line/50 outline-none focus-visible:ring-1 focus-visible:ring-accent ${selected ? 'bg-accent/15' : ''}`}
                >
                  <td className="py-1 pr-3">{p.friendly_name}</td>
                  <td className="py-1 pr-3 font-mono text-xs">{p.username}</td>
                  <td className="py-1 pr-3">{p.has_secret ? 'Stored (encrypted)' : 'None'}</td>
                  <td className="py-1 pr-3">{p.action_count}</td>
                  <td className="py-1 pr-3 text-xs text-muted">{when(p.updated_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Modal open={snap.form !== null} title={editing ? `Edit ${editing.friendly_name}` : 'Add Run-as User Profile'} onClose={() => (profilesStore.form = null)}>
        {snap.form !== null && <ProfileForm key={String(snap.form)} profile={editing} onDone={() => (profilesStore.form = null)} />}
      </Modal>
    </div>
  );
}
