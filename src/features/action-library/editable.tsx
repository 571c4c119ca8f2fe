import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { EditableParam } from '@/api/contracts/library';
import { hotkeyText } from '@/commands/hotkey-format';
import { Button } from '@/ui/button';
import { LockIcon } from './icons';

interface EditableProps {
  label: string;
  param: EditableParam;
  value: string;
  multiline?: boolean;
  /** Whether the user may edit (permission, vendor content). */
  canEdit: boolean;
  /** Why editing is not offered, shown as a tooltip. */
  lockedReason?: string;
  required?: boolean;
  onSave(value: string): Promise<void>;
  children: ReactNode;
}

/**
 * A value shown as text with an Edit button; editing swaps in an input (or a text area: Ctrl+Enter
 * saves), Escape cancels. Errors from the director stay under the field.
 */
export function Editable({ label, param, value, multiline, canEdit, lockedReason, required, onSave, children }: EditableProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);
  useEffect(() => {
    if (editing) field.current?.focus();
  }, [editing]);

  const cancel = () => {
    setEditing(false);
    setError(null);
    setDraft(value);
    setTimeout(() => editButton.current?.focus());
  };
  const save = async () => {
    if (required && !draft.trim()) {
      setError(`${label} can't be blank`);
      return;
    }
    if (draft === value) {
      cancel();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(draft);
      setEditing(false);
      setTimeout(() => editButton.current?.focus());
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  if (!editing)
    return (
      <div className="group flex items-start gap-2" data-field={param}>
        <div className="min-w-0 flex-1">{children}</div>
        {canEdit ? (
          <button
            ref={editButton}
            type="button"
            className="shrink-0 rounded px-1.5 py-0.5 text-2xs text-muted opacity-70 group-hover:opacity-100 hover:bg-raised hover:text-ink"
            aria-label={`Edit ${label.toLowerCase()}`}
            onClick={() => setEditing(true)}
          >
            ✎ Edit
          </button>
        ) : (
          lockedReason && (
            <span className="shrink-0 text-muted" title={lockedReason}>
              <LockIcon title={lockedReason} />
            </span>
          )
        )}
      </div>
    );

  const common = {
    ref: field,
    value: draft,
    'aria-label': label,
    'aria-invalid': !!error,
    disabled: saving,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setDraft(e.target.value),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        cancel();
      } else if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void save();
      }
    },
    className: `w-full rounded border bg-surface px-2 py-1 text-sm ${error ? 'border-red-500' : 'border-accent'}`,
  };
  return (
    <div className="flex flex-col gap-1" data-field={param}>
      {multiline ? <textarea rows={6} {...common} /> : <input {...common} />}
      <div className="flex items-center gap-2">
        <Button variant="primary" disabled={saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
        <Button disabled={saving} onClick={cancel}>
          Cancel
        </Button>
        <span className="text-2xs text-muted">{multiline ? `${hotkeyText('mod+enter')} saves, Esc cancels` : 'Enter saves, Esc cancels'}</span>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-500">
          {error}
        </p>
      )}
    </div>
  );
}
