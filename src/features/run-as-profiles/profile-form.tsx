import { useState, type FormEvent } from 'react';
import type { RunAsProfile } from '@/api/contracts/run-as-profiles';
import { commands } from '@/commands/registry';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { useSubmit } from '@/ui/use-submit';

/** Add or edit a profile. The secret is write-only: empty keeps the kept one; the form says whether one is kept. */
export function ProfileForm({ profile, onDone }: { profile: RunAsProfile | null; onDone: () => void }) {
  const [friendlyName, setFriendlyName] = useState(profile?.friendly_name ?? '');
  const [username, setUsername] = useState(profile?.username ?? '');
  const [secret, setSecret] = useState('');
  const [clearSecret, setClearSecret] = useState(false);
  // What the user typed stays on failure; the director's message says what to fix.
  const { busy, error, run } = useSubmit();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (profile) {
        const changes = {
          ...(friendlyName !== profile.friendly_name ? { friendly_name: friendlyName } : {}),
          ...(username !== profile.username ? { username } : {}),
          ...(secret ? { secret } : {}),
          ...(clearSecret ? { clear_secret: true } : {}),
        };
        if (Object.keys(changes).length === 0) return onDone();
        await commands.execute('runAs.edit', { profile: profile.friendly_name, ...changes }, 'form');
      } else {
        await commands.execute('runAs.create', { friendly_name: friendlyName, username, ...(secret ? { secret } : {}) }, 'form');
      }
      onDone();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={profile ? `Edit ${profile.friendly_name}` : 'Add run-as user profile'}>
      <FormAlert error={error} />
      <Field label="Friendly name" autoFocus value={friendlyName} onChange={(e) => setFriendlyName(e.target.value)} />
      <Field label="Username" value={username} onChange={(e) => setUsername(e.target.value)} placeholder="alice, CORP\alice or alice@corp.example" />
      <Field
        label={profile?.has_secret ? 'New password (empty keeps the stored one)' : 'Password (optional)'}
        type="password"
        autoComplete="new-password"
        value={secret}
        disabled={clearSecret}
        onChange={(e) => setSecret(e.target.value)}
      />
      {profile?.has_secret && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={clearSecret} onChange={(e) => (setClearSecret(e.target.checked), setSecret(''))} />
          Remove the stored password
        </label>
      )}
      <p className="text-2xs text-muted">The password is stored encrypted and is never shown again. On Linux actors the actor runs the Action as this local user.</p>
      <FormActions submitLabel={profile ? 'Save Profile' : 'Add Profile'} onCancel={onDone} busy={busy} />
    </form>
  );
}
