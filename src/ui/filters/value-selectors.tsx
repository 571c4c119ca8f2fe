import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { acceptRangeTyping, dimensionLabelOfField, type FilterFieldConfig, type FilterOption } from '@/api/contracts/filters';
import { fetchLookup } from './api';
import { useDimensionLabels } from './dimension-labels';
import { listKeyTarget } from '@/ui/list-keys';

/** The value selectors of the filter-rule builder (section 2): one per selector type. */

const input = 'rounded border bg-surface px-2 py-1 text-sm';
const border = (invalid: boolean) => (invalid ? 'border-red-500' : 'border-line');

export interface SelectorProps<V> {
  field: FilterFieldConfig;
  matchObject: string;
  value: V;
  onChange(value: V): void;
  label: string;
  invalid: boolean;
  describedBy?: string | undefined;
}

/** Comma-number-range: only digits, commas, hyphens and spaces are accepted while typing (section 5). */
export function RangeInput({ field, value, onChange, label, invalid, describedBy }: SelectorProps<string>) {
  return (
    <input
      className={`${input} ${border(invalid)} w-44`}
      aria-label={label}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      inputMode="numeric"
      placeholder={field.placeholder}
      value={value}
      onChange={(e) => {
        if (acceptRangeTyping(e.target.value)) onChange(e.target.value);
      }}
    />
  );
}

export function PlainText({ field, value, onChange, label, invalid, describedBy }: SelectorProps<string>) {
  return (
    <input
      className={`${input} ${border(invalid)} w-52`}
      aria-label={label}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      placeholder={field.placeholder}
      maxLength={200}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function Dropdown({ field, value, onChange, label, invalid, describedBy }: SelectorProps<string>) {
  const options = field.options ?? [];
  // A single option is chosen for the user (section 5).
  useEffect(() => {
    if (options.length === 1 && value !== options[0]!.value) onChange(options[0]!.value);
  }, [options, value, onChange]);
  return (
    <select className={`${input} ${border(invalid)}`} aria-label={label} aria-invalid={invalid} aria-describedby={describedBy} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.length !== 1 && <option value="">Choose…</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function Chips({ values, labels, onRemove, label }: { values: string[]; labels?: Record<string, string>; onRemove(i: number): void; label: string }) {
  return (
    <>
      {values.map((v, i) =>
        v.trim() ? (
          <span key={`${v}-${i}`} className="inline-flex items-center gap-1 rounded bg-raised px-1.5 py-0.5 text-xs">
            {labels?.[v] ?? v}
            <button type="button" className="text-muted hover:text-ink" aria-label={`Remove ${labels?.[v] ?? v} from ${label}`} onClick={() => onRemove(i)}>
              ×
            </button>
          </span>
        ) : null,
      )}
    </>
  );
}

/** Text list: type a value, Enter (or comma) adds it; Backspace in an empty box removes the last one. */
export function TextList({ field, value, onChange, label, invalid, describedBy }: SelectorProps<string[]>) {
  const [text, setText] = useState('');
  const add = () => {
    const t = text.trim();
    if (t && !value.includes(t)) onChange([...value, t]);
    setText('');
  };
  return (
    <div className={`flex min-w-52 flex-wrap items-center gap-1 rounded border ${border(invalid)} bg-surface px-1 py-0.5`}>
      <Chips values={value} onRemove={(i) => onChange(value.filter((_, j) => j !== i))} label={label} />
      <input
        className="min-w-24 flex-1 bg-transparent px-1 py-0.5 text-sm outline-none"
        aria-label={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        placeholder={field.placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={add}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          } else if (e.key === 'Backspace' && !text && value.length) onChange(value.slice(0, -1));
        }}
      />
    </div>
  );
}

/** Textarea list: one value per line. */
export function TextareaList({ field, value, onChange, label, invalid, describedBy }: SelectorProps<string[]>) {
  return (
    <textarea
      className={`${input} ${border(invalid)} h-16 w-52`}
      aria-label={label}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      placeholder={field.placeholder}
      value={value.join('\n')}
      onChange={(e) => onChange(e.target.value.split('\n'))}
    />
  );
}

/** Options of a typeahead: the field's own, else GET /lookup/{matchObject}/{matchField} (failures are logged only). */
function useOptions(field: FilterFieldConfig, matchObject: string, q: string, open: boolean): FilterOption[] {
  const [options, setOptions] = useState<FilterOption[]>([]);
  useEffect(() => {
    if (!open) return;
    if (field.options) {
      const n = q.toLowerCase();
      setOptions(field.options.filter((o) => o.label.toLowerCase().includes(n)));
      return;
    }
    const ctl = new AbortController();
    const t = setTimeout(() => {
      fetchLookup(matchObject, field.match_field, q, ctl.signal)
        .then(setOptions)
        .catch((e: unknown) => {
          if (!ctl.signal.aborted) console.error('Lookup failed', e);
        });
    }, 150);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [field, matchObject, q, open]);
  return options;
}

/** Typeahead: a combobox whose list (max height 230 px) offers matching values; chosen values show as chips. */
export function Typeahead({ field, matchObject, value, onChange, label, invalid, describedBy }: SelectorProps<string[]>) {
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [labels, setLabels] = useState<Record<string, string>>({});
  // Values kept as ids (dimension nodes) show their names, also after a reload.
  const dimension = dimensionLabelOfField(field.match_field);
  const dimLabels = useDimensionLabels(dimension ? [{ type: dimension, enabled: value.length > 0 }] : []);
  const chipLabels = useMemo(() => ({ ...labels, ...Object.fromEntries(dimLabels) }), [labels, dimLabels]);
  const listId = useId();
  const options = useOptions(field, matchObject, q, open).filter((o) => !value.includes(o.value));
  const box = useRef<HTMLDivElement>(null);
  const choose = (o: FilterOption) => {
    setLabels((l) => ({ ...l, [o.value]: o.label }));
    onChange([...value, o.value]);
    setQ('');
    setActive(0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const to = listKeyTarget(e, active, options.length);
    if (to !== null || e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      if (to !== null) setActive(to);
    } else if (e.key === 'Enter' && open && options[active]) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    } else if (e.key === 'Backspace' && !q && value.length) onChange(value.slice(0, -1));
  };
  return (
    <div
      ref={box}
      className="relative"
      onBlur={(e) => {
        if (!box.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <div className={`flex min-w-52 flex-wrap items-center gap-1 rounded border ${border(invalid)} bg-surface px-1 py-0.5`}>
        <Chips values={value} labels={chipLabels} onRemove={(i) => onChange(value.filter((_, j) => j !== i))} label={label} />
        <input
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
          aria-label={label}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="min-w-24 flex-1 bg-transparent px-1 py-0.5 text-sm outline-none"
          placeholder={field.placeholder}
          value={q}
          onFocus={() => setOpen(true)}
          onChange={(e) => {
            setQ(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {open && (
        <ul id={listId} role="listbox" aria-label={`${label} options`} className="absolute left-0 z-[1040] mt-1 w-64 overflow-auto rounded border border-line bg-panel py-1 text-sm shadow-xl" style={{ maxHeight: 230 }}>
          {options.length === 0 && <li className="px-2 py-1 text-muted">No matches</li>}
          {options.map((o, i) => (
            <li
              key={o.value}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer px-2 py-1 ${i === active ? 'bg-accent/20' : 'hover:bg-raised'}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o)}
            >
              {o.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
