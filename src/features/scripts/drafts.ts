/** A script as edited in the Scripts pane. */
export interface ScriptDraft {
  name: string;
  body: string;
  shared: boolean;
}

export const NEW_SCRIPT_TEMPLATE = `# One command per line: command.id name=value …
# Bind a result with: let job = some.command …   and use it as $job.id
script.echo text="Hello from Vigil"
`;

export const newScript = (): ScriptDraft => ({ name: '', body: NEW_SCRIPT_TEMPLATE, shared: false });

/** The browser-storage key of one user's unsaved edits of one script (`new` for a script not saved yet). */
export const draftKey = (userId: number | string | undefined, scriptId: number | null) => `vigil.scripts.draft.${userId ?? 'anonymous'}.${scriptId ?? 'new'}`;

export const sameScript = (a: ScriptDraft, b: ScriptDraft) => a.name === b.name && a.body === b.body && a.shared === b.shared;

/** The unsaved edits kept under `key`, or null (none, or unreadable). */
export function readDraft(storage: Storage, key: string): ScriptDraft | null {
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<ScriptDraft>;
    if (typeof d.name !== 'string' || typeof d.body !== 'string') return null;
    return { name: d.name, body: d.body, shared: d.shared === true };
  } catch {
    return null;
  }
}

/** Keeps `draft` under `key` while it differs from `saved`; forgets it once they agree again. */
export function keepDraft(storage: Storage, key: string, draft: ScriptDraft, saved: ScriptDraft): void {
  try {
    if (sameScript(draft, saved)) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft lives only in the pane.
  }
}

export function forgetDraft(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

/** What closing a pane with unsaved changes asks. */
export const DISCARD_QUESTION = {
  message: (name: string) => `${name ? `"${name}" has` : 'This new script has'} unsaved changes. Discard them and close the pane?`,
  wording: { title: 'Unsaved Script', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing' },
} as const;
