import { useSnapshot } from 'valtio';
import { CommandButton } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import type { RunAsProfile } from '@/api/contracts/run-as-profiles';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { Modal } from '@/ui/modal';
import { useProfiles } from './api';
import { ProfileForm } from './profile-form';
import { profilesStore } from './store';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

const COLUMNS: DataColumn<RunAsProfile>[] = [
  { key: 'friendly_name', label: 'Friendly name', text: (p) => p.friendly_name, render: (p) => p.friendly_name },
  { key: 'username', label: 'Username', text: (p) => p.username, render: (p) => <span className="font-mono text-xs">{p.username}</span> },
  { key: 'secret', label: 'Password', render: (p) => (p.has_secret ? 'Stored (encrypted)' : 'None') },
  { key: 'actions', label: 'Actions', render: (p) => p.action_count },
  { key: 'updated', label: 'Updated', render: (p) => <span className="text-xs text-muted">{when(p.updated_at)}</span> },
];

const run = (id: string) => void commands.execute(id, {}, 'hotkey').catch(() => undefined);

/** /action_user_profiles: the run-as user profiles in the generic table; arrows move the selection, Enter edits, Delete deletes. */
export function ProfilesPane() {
  const { data: profiles, isLoading, error, refetch } = useProfiles();
  const snap = useSnapshot(profilesStore);
  const editing = typeof snap.form === 'number' ? (profiles?.find((p) => p.id === snap.form) ?? null) : null;

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
      {error && !profiles && (
        <div role="alert" className="flex items-center gap-2">
          Could not load the run-as user profiles: {error.message}
          <button type="button" className="underline" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      )}
      {!(error && !profiles) && (
        <DataTable<RunAsProfile>
          id="action-user-profiles"
          label="Run-as user profiles"
          role="grid"
          columns={COLUMNS}
          rows={profiles}
          rowKey={(p) => p.id}
          refetch={refetch}
          loading={isLoading ? <p className="text-muted">Loading run-as user profiles…</p> : null}
          empty="No run-as user profiles yet. Actions run as System until you add one."
          selectedKey={snap.selectedId}
          onSelect={(p) => (profilesStore.selectedId = p.id)}
          onOpen={(p) => {
            profilesStore.selectedId = p.id;
            run('runAs.edit');
          }}
          onRowKeyDown={(e, p) => {
            if (e.key !== 'Delete') return;
            e.preventDefault();
            profilesStore.selectedId = p.id;
            run('runAs.delete');
          }}
        />
      )}
      <Modal open={snap.form !== null} title={editing ? `Edit ${editing.friendly_name}` : 'Add Run-as User Profile'} onClose={() => (profilesStore.form = null)}>
        {snap.form !== null && <ProfileForm key={String(snap.form)} profile={editing} onDone={() => (profilesStore.form = null)} />}
      </Modal>
    </div>
  );
}
