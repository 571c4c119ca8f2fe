import { useId, useState, type KeyboardEvent } from 'react';

/**
 * An actor's user tags: chips with a remove button each, and an input that adds on Enter (or a comma)
 * with the existing tags offered as suggestions. Empty values are refused; a duplicate (any letter
 * case) is highlighted instead of being added (MON-107, MON-110).
 */
export function TagListInput({ value, onChange, suggestions, disabled }: { value: string[]; onChange: (tags: string[]) => void; suggestions: string[]; disabled?: boolean }) {
  const [text, setText] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const [flashTag, setFlashTag] = useState<string | null>(null);
  const listId = useId();

  const add = () => {
    const tag = text.trim();
    if (!tag) return setHint('A tag must not be empty');
    const existing = value.find((t) => t.toLowerCase() === tag.toLowerCase());
    if (existing) {
      setFlashTag(existing);
      return setHint(`${existing} is already a tag of this actor`);
    }
    onChange([...value, tag]);
    setText('');
    setHint(null);
    setFlashTag(null);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add();
    } else if (e.key === 'Backspace' && !text && value.length) onChange(value.slice(0, -1));
  };

  return (
    <div className="flex flex-col gap-1 text-xs font-medium text-muted">
      <span>Tags</span>
      <ul className="flex flex-wrap gap-1" aria-label="Tags of this actor">
        {value.length === 0 && <li className="text-muted">No tags</li>}
        {value.map((t) => (
          <li key={t} className={`flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs text-ink ${flashTag === t ? 'border-amber-400 bg-amber-400/20' : 'border-line bg-surface'}`}>
            {t}
            {!disabled && (
              <button type="button" aria-label={`Remove tag ${t}`} className="text-muted hover:text-ink" onClick={() => onChange(value.filter((x) => x !== t))}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!disabled && (
        <input
          aria-label="Add a tag"
          list={listId}
          placeholder="Type a tag and press Enter (Group:Name groups actors)"
          className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink"
          value={text}
          onChange={(e) => (setText(e.target.value), setHint(null), setFlashTag(null))}
          onKeyDown={onKey}
        />
      )}
      <datalist id={listId}>
        {suggestions
          .filter((s) => !value.some((v) => v.toLowerCase() === s.toLowerCase()))
          .map((s) => (
            <option key={s} value={s} />
          ))}
      </datalist>
      {hint && <span className="text-amber-400">{hint}</span>}
    </div>
  );
}
