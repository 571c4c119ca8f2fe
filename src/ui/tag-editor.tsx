import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { flash } from './toasts';
import { GROUP_PREFIX, checkTagValue, duplicateOf, type TagChangeReply, type TagLoading, type TagOptionStatus, type TagRuleOptions } from '@/api/contracts/tags';

export interface EditorTag {
  name: string;
  /** MON-076: false locks the tag. */
  editable: boolean;
}

interface Shown extends EditorTag {
  loading: TagLoading;
}

export interface TagEditorProps {
  label: string;
  tags: readonly EditorTag[];
  /** Existing tags offered in the option list (CHECKED when carried, UNCHECKED otherwise, LOADING while a call is out). */
  options: readonly string[];
  /** MON-121: false shows the tags read-only. */
  isEditable: boolean;
  rules?: TagRuleOptions;
  /** Calls the director (a command); resolves with its reply, rejects with its message. */
  change(op: 'add' | 'remove', tag: string): Promise<TagChangeReply | undefined>;
}

/**
 * The tag editor (MON-021, MON-073..076, MON-107..111): a popover that closes on an outside click,
 * holding the tags with a remove button each, an input that adds, and the option list. Adds and
 * removes show at once (ADDING / REMOVING), then the director's reply replaces the list; a reply whose
 * status is not 200 gives the list it carries, and later edits stay local. A duplicate is highlighted
 * instead of added; locked tags cannot be changed.
 */
export function TagEditor({ label, tags, options, isEditable, rules, change }: TagEditorProps) {
  const [shown, setShown] = useState<Shown[]>(() => tags.map((t) => ({ ...t, loading: 'COMPLETE' })));
  const [local, setLocal] = useState(false);
  const [text, setText] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);

  // A fresh list from outside (a reload after "tags updated") replaces what is shown while no call is out.
  useEffect(() => {
    setShown((cur) => (cur.some((t) => t.loading !== 'COMPLETE') || local ? cur : tags.map((t) => ({ ...t, loading: 'COMPLETE' }))));
  }, [tags, local]);

  const fromReply = (reply: TagChangeReply) => {
    const editable = new Map(shown.map((t) => [t.name.toLowerCase(), t.editable]));
    setShown(reply.data.user_tags.map((name) => ({ name, editable: editable.get(name.toLowerCase()) ?? true, loading: 'COMPLETE' })));
    if (reply.status !== 200) {
      setLocal(true);
      setMessage(reply.message ?? 'The director did not accept the change; later edits stay local.');
    }
  };

  const run = async (op: 'add' | 'remove', name: string, before: Shown[]) => {
    if (local) return setShown((cur) => cur.map((t) => ({ ...t, loading: 'COMPLETE' })));
    try {
      const reply = await change(op, name);
      if (reply) fromReply(reply);
      else setShown((cur) => cur.map((t) => ({ ...t, loading: 'COMPLETE' })));
    } catch (e) {
      setShown(before);
      setMessage(e instanceof Error ? e.message : String(e));
    }
  };

  const add = (raw: string) => {
    setMessage(null);
    const checked = checkTagValue(raw, rules);
    // MON-108, MON-149: a value the rules do not allow is the spec's flash alert; an empty one is said here.
    if (!checked.ok) return checked.refusal === 'invalid' ? void flash('alert', checked.message) : setMessage(checked.message);
    const dup = duplicateOf(shown.map((t) => t.name), checked.value);
    if (dup) return setHighlight(dup);
    const before = shown;
    setShown([...shown, { name: checked.value, editable: true, loading: 'ADDING' }]);
    setText('');
    setHighlight(null);
    void run('add', checked.value, before);
  };
  const remove = (name: string) => {
    setMessage(null);
    const before = shown;
    setShown(shown.map((t) => (t.name === name ? { ...t, loading: 'REMOVING' } : t)));
    void run('remove', name, before);
  };
  const statusOf = (option: string): TagOptionStatus => {
    const t = shown.find((s) => s.name.toLowerCase() === option.toLowerCase());
    return !t ? 'UNCHECKED' : t.loading === 'COMPLETE' ? 'CHECKED' : 'LOADING';
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      add(text);
    }
  };

  const chips = (
    <ul className="flex flex-wrap gap-1" aria-label={label}>
      {shown.length === 0 && <li className="text-xs text-muted">No tags</li>}
      {shown.map((t) => (
        <li
          key={t.name}
          aria-busy={t.loading !== 'COMPLETE'}
          className={`flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs text-ink ${highlight === t.name ? 'border-amber-400 bg-amber-400/20' : 'border-line bg-surface'} ${t.loading === 'REMOVING' ? 'line-through opacity-60' : ''} ${t.loading === 'ADDING' ? 'opacity-60' : ''}`}
        >
          {t.name}
          {!t.editable && <span title="This tag is locked">🔒</span>}
        </li>
      ))}
    </ul>
  );
  if (!isEditable) return chips;

  return (
    <div className="flex flex-col gap-1">
      {chips}
      <Popover className="relative">
        <PopoverButton className="rounded border border-line px-2 py-0.5 text-xs hover:bg-surface">Edit tags</PopoverButton>
        <PopoverPanel focus className="absolute z-50 mt-1 flex w-80 flex-col gap-2 rounded border border-line bg-panel p-3 shadow-xl" aria-label={`Edit ${label}`}>
          <input
            aria-label="New tag"
            className="rounded border border-line bg-surface px-2 py-1 text-sm"
            placeholder={`Type a tag and press Enter (${GROUP_PREFIX}Name groups)`}
            value={text}
            onChange={(e) => (setText(e.target.value), setHighlight(null), setMessage(null))}
            onKeyDown={onKey}
          />
          {message && (
            <p role="alert" className="text-xs text-red-300">
              {message}
            </p>
          )}
          {local && <p className="text-2xs text-amber-300">Changes are kept here only.</p>}
          <ul aria-label="Tags" className="flex flex-col gap-0.5">
            {shown.map((t) => (
              <li key={t.name} className="flex items-center justify-between text-sm">
                <span className={highlight === t.name ? 'rounded bg-amber-400/20 px-1' : ''}>{t.name}</span>
                <button type="button" className="text-xs text-muted hover:text-ink disabled:opacity-40" disabled={!t.editable || t.loading !== 'COMPLETE'} aria-label={`Remove tag ${t.name}`} onClick={() => remove(t.name)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {options.length > 0 && (
            <fieldset className="flex max-h-40 flex-col gap-0.5 overflow-auto border-t border-line pt-2">
              <legend className="text-2xs text-muted uppercase">Existing tags</legend>
              {options.map((o) => {
                const status = statusOf(o);
                const carried = shown.find((s) => s.name.toLowerCase() === o.toLowerCase());
                return (
                  <label key={o} className="flex items-center gap-2 text-sm" data-status={status}>
                    <input
                      type="checkbox"
                      checked={status !== 'UNCHECKED'}
                      disabled={status === 'LOADING' || (carried && !carried.editable)}
                      onChange={(e) => (e.target.checked ? add(o) : carried && remove(carried.name))}
                    />
                    {o}
                    {status === 'LOADING' && <span className="text-2xs text-muted">…</span>}
                  </label>
                );
              })}
            </fieldset>
          )}
        </PopoverPanel>
      </Popover>
    </div>
  );
}
