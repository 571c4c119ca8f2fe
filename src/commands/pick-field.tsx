import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { listKeyTarget } from '@/ui/list-keys';
import type { ChosenPicks, PickOption, PickSource } from './pick';

const SEARCH_DELAY_MS = 200;
const NONE: ChosenPicks = {};

/**
 * A searchable pick list for one entity argument (or several, `multiple`): typing searches the source,
 * arrows move, Enter chooses (Enter again submits the form), Backspace on an empty box removes the last
 * choice of a multiple pick.
 */
export function PickField({
  label,
  source,
  multiple,
  value,
  onChange,
  autoFocus,
  chosen = NONE,
}: {
  label: string;
  source: PickSource;
  multiple: boolean;
  value: PickOption[];
  onChange(v: PickOption[]): void;
  autoFocus?: boolean;
  /** What the form has chosen in its other pick lists (a list that depends on another searches again when it changes). */
  chosen?: ChosenPicks;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(value.length === 0);
  // The answer of the last search, with the text it answers: an answer for an older text is never shown
  // nor chosen (typing "7" then Enter before the search for "7" answered must not pick the first row
  // found for "").
  const [found, setFound] = useState<{ query: string; options: PickOption[] } | null>(null);
  const [failed, setFailed] = useState<{ query: string; message: string } | null>(null);
  const [active, setActive] = useState(0);
  // Enter pressed while the search for the text typed was still running: it chooses the first row as
  // soon as that search answers (as the palette's typeahead does).
  const [enterPending, setEnterPending] = useState(false);
  const searched = query.trim();
  const state: 'loading' | 'ready' | 'error' = found?.query === searched ? 'ready' : failed?.query === searched ? 'error' : 'loading';
  const options = state === 'ready' ? found!.options : [];

  useEffect(() => {
    if (!open) return;
    const ac = new AbortController();
    const t = setTimeout(() => {
      source.search(searched, ac.signal, chosen).then(
        (rows) => {
          if (ac.signal.aborted) return;
          setFound({ query: searched, options: rows });
          setActive(0);
        },
        (e: Error) => {
          if (ac.signal.aborted) return;
          setFailed({ query: searched, message: e.message });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(t);
      ac.abort();
    };
  }, [searched, open, source, chosen]);

  const choose = (o: PickOption) => {
    onChange(multiple ? [...value.filter((v) => v.value !== o.value), o] : [o]);
    setQuery('');
    setOpen(multiple);
  };
  const shown = multiple ? options.filter((o) => !value.some((v) => v.value === o.value)) : options;

  useEffect(() => {
    if (!enterPending || state === 'loading') return;
    setEnterPending(false);
    if (state === 'ready' && shown[0]) choose(shown[0]);
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const choosing = open && e.key === 'Enter' && (searched || !value.length);
    const to = open ? listKeyTarget(e, active, shown.length) : null;
    if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setOpen(true);
    } else if (to !== null) {
      e.preventDefault();
      setActive(to);
    } else if (choosing && state === 'loading') {
      // Not the form's submit: the choice is still coming.
      e.preventDefault();
      setEnterPending(true);
    } else if (choosing && shown[active]) {
      e.preventDefault();
      choose(shown[active]);
    } else if (e.key === 'Backspace' && !query && value.length) {
      onChange(value.slice(0, -1));
      setOpen(true);
    }
  };

  const listId = `${id}-list`;
  const single = !multiple ? value[0] : undefined;
  return (
    <div className="flex flex-col gap-1">
      {multiple && value.length > 0 && (
        <ul aria-label={`Chosen ${source.noun}s`} className="flex flex-wrap gap-1">
          {value.map((v) => (
            <li key={v.value} className="flex items-center gap-1 rounded border border-line px-1 text-xs">
              {v.label}
              <button type="button" aria-label={`Remove ${v.label}`} className="text-muted hover:text-ink" onClick={() => onChange(value.filter((x) => x.value !== v.value))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        autoFocus={autoFocus}
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? `${id}-o-${shown[active].value}` : undefined}
        placeholder={single ? single.label : `Search ${source.noun}s…`}
        value={query}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setQuery(e.target.value);
          setEnterPending(false);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        className="rounded border border-line bg-surface px-2 py-1 text-sm"
      />
      {single && (
        <div className="text-xs" aria-live="polite">
          Chosen: <span className="font-semibold">{single.label}</span>
        </div>
      )}
      {open && (
        <ul id={listId} role="listbox" aria-label={`${label} choices`} className="max-h-48 overflow-auto rounded border border-line">
          {state === 'loading' && <li className="px-2 py-1 text-xs text-muted">Searching {source.noun}s…</li>}
          {state === 'error' && <li className="px-2 py-1 text-xs text-red-400">Could not search the {source.noun}s: {failed?.message}</li>}
          {state === 'ready' && shown.length === 0 && <li className="px-2 py-1 text-xs text-muted">No {source.noun} matches.</li>}
          {state === 'ready' &&
            shown.map((o, i) => (
              <li
                key={o.value}
                id={`${id}-o-${o.value}`}
                role="option"
                // The name reads as words: "Job 320 DNS Query", not the label and detail run together.
                aria-label={o.detail ? `${o.label} ${o.detail}` : o.label}
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(o)}
                className={`cursor-pointer px-2 py-1 text-sm ${i === active ? 'bg-accent/15' : 'hover:bg-raised'}`}
              >
                {o.label}
                {o.detail && <span className="ml-2 text-2xs text-muted">{o.detail}</span>}
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}
