/**
 * A multi-value picker with chips: type to filter grouped options, arrows and Enter to add, Backspace
 * on an empty box to remove the last chip. `allowCreate` offers the typed text as a new value.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { inputClass } from './controls';

export interface ChipOption {
  value: string;
  label: string;
  group: string;
}

interface ChipPickerProps {
  label: string;
  options: readonly ChipOption[];
  value: readonly string[];
  onChange(next: string[]): void;
  allowCreate?: boolean;
  hint?: string;
  error?: string | undefined;
  disabled?: boolean;
  max?: number;
}

export function ChipPicker({ label, options, value, onChange, allowCreate, hint, error, disabled, max = 60 }: ChipPickerProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const chosen = useMemo(() => new Set(value.map((v) => v.toLowerCase())), [value]);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = options.filter((o) => !chosen.has(o.value.toLowerCase()) && (!q || o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q)));
    const items: { value: string; label: string; group: string; create?: boolean }[] = list.slice(0, max);
    const exact = options.some((o) => o.value.toLowerCase() === q);
    if (allowCreate && q && !exact && !chosen.has(q)) items.unshift({ value: query.trim(), label: `Create "${query.trim()}"`, group: 'New tag', create: true });
    return items;
  }, [options, chosen, query, allowCreate, max]);

  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => {
    if (open) document.getElementById(`${id}-o${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active, id]);

  const add = (v: string) => {
    if (!v || chosen.has(v.toLowerCase())) return;
    onChange([...value, v]);
    setQuery('');
  };
  const remove = (v: string) => onChange(value.filter((x) => x !== v));
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;

  let lastGroup = '';
  return (
    <div className="relative flex flex-col gap-1" ref={rootRef}>
      <label htmlFor={`${id}-input`} className="text-xs font-medium text-muted">
        {label}
      </label>
      <div className={`${inputClass(!!error)} flex flex-wrap items-center gap-1 py-1`} onClick={() => document.getElementById(`${id}-input`)?.focus()}>
        {value.map((v) => (
          <span key={v} className="inline-flex items-center gap-1 rounded bg-raised px-1.5 py-0.5 text-xs">
            {labelOf(v)}
            {!disabled && (
              <button type="button" aria-label={`Remove ${labelOf(v)}`} className="text-muted hover:text-ink" onClick={() => remove(v)}>
                ×
              </button>
            )}
          </span>
        ))}
        <input
          id={`${id}-input`}
          role="combobox"
          aria-expanded={open}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? `${id}-o${active}` : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          disabled={disabled}
          autoComplete="off"
          className="min-w-32 flex-1 bg-transparent py-0.5 text-sm outline-none"
          placeholder={value.length ? '' : 'Type to search'}
          value={query}
          onClick={() => setOpen(true)}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive(Math.min(matches.length - 1, active + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive(Math.max(0, active - 1));
            } else if (e.key === 'Enter') {
              if (open && matches[active]) {
                e.preventDefault();
                add(matches[active]!.value);
              }
            } else if (e.key === 'Escape' && open) {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
            } else if (e.key === 'Backspace' && !query && value.length) {
              remove(value[value.length - 1]!);
            } else if (e.key === 'Tab') setOpen(false);
          }}
        />
      </div>
      {hint && !error && (
        <span id={`${id}-hint`} className="text-2xs text-muted">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="text-xs text-red-400" data-field-error>
          {error}
        </span>
      )}
      {open && !disabled && (
        <ul id={`${id}-list`} role="listbox" aria-label={label} className="absolute top-full left-0 z-30 mt-1 max-h-64 w-full overflow-auto rounded border border-line bg-panel py-1 shadow-xl">
          {matches.length === 0 && <li className="px-3 py-1 text-muted">No match</li>}
          {matches.map((m, i) => {
            const header = m.group !== lastGroup ? m.group : null;
            lastGroup = m.group;
            return (
              <li key={`${m.group}-${m.value}`} role="presentation">
                {header && <div className="px-2 pt-1.5 pb-0.5 text-2xs font-semibold tracking-wide text-muted uppercase">{header}</div>}
                <div
                  id={`${id}-o${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={`cursor-pointer px-3 py-0.5 text-sm ${i === active ? 'bg-accent/20' : ''}`}
                  onMouseEnter={() => setActive(i)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => add(m.value)}
                >
                  {m.label}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
