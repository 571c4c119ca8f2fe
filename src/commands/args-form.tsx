import { useState, type FormEvent } from 'react';
import * as yup from 'yup';
import type { AnyCommand, CommandContext } from './types';
import { currentPicks, isScriptOnly, pickSourceOf, type PickOption, type PickSource } from './pick';
import { PickField } from './pick-field';
import { useSubmit } from '@/ui/use-submit';

interface FieldDesc {
  name: string;
  label: string;
  type: string;
  required: boolean;
  oneOf: unknown[];
  /** An entity argument: a searchable pick list (several for an array). */
  pick: PickSource | null;
  /** An optional entity argument the command acts on (its source has `current`): the form still asks for one. */
  mustChoose: boolean;
}

/** The fields a command's yup object schema asks for, for prompting in the palette. */
export function argFields(command: AnyCommand): FieldDesc[] {
  if (!command.args) return [];
  const d = command.args.describe() as yup.SchemaObjectDescription;
  if (!d.fields) return [];
  return Object.entries(d.fields).flatMap(([name, f]) => {
    const fd = f as yup.SchemaDescription;
    if (isScriptOnly(fd.meta)) return [];
    const pick = pickSourceOf(fd.meta);
    return {
      name,
      label: fd.label ?? name,
      type: fd.type,
      // The entity a command acts on (a source with `current`): the form asks for one (see PickSource.current).
      required: !fd.optional || !!pick?.current,
      oneOf: fd.oneOf ?? [],
      pick,
      mustChoose: fd.optional && !!pick?.current,
    };
  });
}

/** What the user gave in the form: text by field, switches, and the chosen entities of pick lists. */
export interface FormInput {
  values?: Record<string, string>;
  toggles?: Record<string, boolean>;
  picks?: Record<string, readonly PickOption[]>;
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

/**
 * The arguments a submitted form gives the command, or why the form refuses them: an entity the
 * command acts on not chosen, or the schema's own messages.
 */
export function formArgs(command: AnyCommand, input: FormInput): { args: Record<string, unknown> } | { error: string } {
  const raw: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const f of argFields(command)) {
    const chosen = input.picks?.[f.name];
    if (f.pick) {
      if (chosen?.length) raw[f.name] = f.type === 'array' ? chosen.map((o) => o.value) : chosen[0]?.value;
      else if (f.mustChoose) missing.push(f.type === 'array' ? `Choose one or more ${f.pick.noun}s.` : `Choose ${article(f.pick.noun)}.`);
      continue;
    }
    if (f.type === 'boolean') {
      if (input.toggles?.[f.name] !== undefined) raw[f.name] = input.toggles[f.name];
      continue;
    }
    const v = input.values?.[f.name];
    if (v !== undefined && v !== '') raw[f.name] = f.type === 'number' ? Number(v) : v;
  }
  if (missing.length) return { error: missing.join(' ') };
  try {
    command.args?.validateSync(raw, { abortEarly: false });
  } catch (err) {
    return { error: err instanceof yup.ValidationError ? err.errors.join(' ') : String(err) };
  }
  return { args: raw };
}

/** The palette asks for a command's arguments when one is required or is an entity to pick. */
export const needsPrompt = (command: AnyCommand): boolean => argFields(command).some((f) => f.required || f.pick !== null);

/** `cancelLabel`: 'Back' to the palette's list (the default), 'Cancel' where a hotkey opened the form alone. */
export function ArgsForm({ command, ctx, onSubmit, onCancel, cancelLabel = 'Back' }: { command: AnyCommand; ctx?: CommandContext; onSubmit: (args: Record<string, unknown>) => Promise<void>; onCancel: () => void; cancelLabel?: string }) {
  const fields = argFields(command);
  const [values, setValues] = useState<Record<string, string>>({});
  const [toggles, setToggles] = useState<Record<string, boolean>>({});
  const [picks, setPicks] = useState<Record<string, PickOption[]>>(() => {
    const first: Record<string, PickOption[]> = {};
    for (const f of fields) {
      const current = f.pick && ctx ? currentPicks(f.pick, ctx) : [];
      if (current.length) first[f.name] = current;
    }
    return first;
  });
  const { busy, error, setError, run } = useSubmit();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const given = formArgs(command, { values, toggles, picks });
    if ('error' in given) {
      setError(given.error);
      return;
    }
    await run(() => onSubmit(given.args));
  };

  return (
    <form onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), onCancel())} className="flex flex-col gap-2 p-3" aria-label={`Arguments for ${command.title}`}>
      <div className="text-xs text-muted">
        {command.category}: <span className="font-semibold text-ink">{command.title}</span>
      </div>
      {fields.map((f, i) =>
        f.type === 'boolean' ? (
          // Booleans are switches, never text fields.
          <label key={f.name} className="flex items-center gap-2 text-xs">
            <input autoFocus={i === 0} type="checkbox" role="switch" checked={toggles[f.name] ?? false} onChange={(e) => setToggles({ ...toggles, [f.name]: e.target.checked })} />
            {f.label}
          </label>
        ) : (
        <label key={f.name} className="flex flex-col gap-1 text-xs">
          <span>
            {f.label}
            {f.required && <span className="text-red-400"> *</span>}
          </span>
          {f.pick ? (
            <PickField
              label={f.label}
              source={f.pick}
              multiple={f.type === 'array'}
              value={picks[f.name] ?? []}
              chosen={picks}
              onChange={(v) => (setPicks({ ...picks, [f.name]: v }), setError(null))}
              autoFocus={i === 0}
            />
          ) : f.oneOf.length > 0 ? (
            <select autoFocus={i === 0} className="rounded border border-line bg-surface px-2 py-1 text-sm" value={values[f.name] ?? ''} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}>
              <option value="">Choose…</option>
              {f.oneOf.filter((o) => o !== undefined && o !== null).map((o) => (
                <option key={String(o)} value={String(o)}>
                  {String(o)}
                </option>
              ))}
            </select>
          ) : (
            <input
              autoFocus={i === 0}
              type={f.type === 'number' ? 'number' : /password/i.test(f.name) ? 'password' : 'text'}
              className="rounded border border-line bg-surface px-2 py-1 text-sm"
              value={values[f.name] ?? ''}
              onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
            />
          )}
        </label>
        ),
      )}
      {error && (
        <div role="alert" className="text-xs text-red-400">
          {error}
        </div>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className="rounded border border-line px-2 py-1 text-xs" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="submit" disabled={busy} className="rounded bg-accent px-2 py-1 text-xs font-semibold text-slate-950 disabled:opacity-50">
          Run
        </button>
      </div>
    </form>
  );
}
