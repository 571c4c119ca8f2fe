/** Form controls bound to the Action form (react-hook-form context), each with its label and error. */
import { useId, type ReactNode } from 'react';
import { Controller, get, useFormContext, useFormState, type FieldPath } from 'react-hook-form';
import type { Limit } from '@/api/contracts/action-form';
import type { ActionFormValues } from './form-model';

export type FormPath = FieldPath<ActionFormValues>;

export const inputClass = (invalid: boolean) =>
  `rounded border bg-surface px-2 py-1.5 text-sm text-ink disabled:cursor-not-allowed disabled:opacity-60 ${invalid ? 'border-red-500' : 'border-line'}`;
export const labelClass = 'text-xs font-medium text-muted';
/** A required field's label: the star is drawn by CSS so it is not part of the label's text. */
export const requiredLabelClass = `${labelClass} after:ml-0.5 after:text-red-400 after:content-['*']`;

export function useFieldError(name: string): string | undefined {
  const { errors } = useFormState<ActionFormValues>({ name: name as FormPath });
  const e = get(errors, name) as { message?: string } | undefined;
  return e?.message;
}

export function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="text-xs text-red-400" data-field-error>
      {message}
    </span>
  );
}

interface Base {
  name: FormPath;
  label: string;
  hint?: ReactNode;
  disabled?: boolean;
  className?: string;
  required?: boolean;
}

function Label({ htmlFor, label, required, hidden }: { htmlFor: string; label: string; required?: boolean | undefined; hidden?: boolean | undefined }) {
  return (
    <label htmlFor={htmlFor} className={hidden ? 'sr-only' : required ? requiredLabelClass : labelClass}>
      {label}
    </label>
  );
}

function Hint({ children }: { children: ReactNode }) {
  return children ? <span className="text-2xs text-muted">{children}</span> : null;
}

export function TextInput({ name, label, hint, disabled, className = '', required, placeholder, list, autoFocus, mono }: Base & { placeholder?: string; list?: string; autoFocus?: boolean; mono?: boolean }) {
  const { register } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <Label htmlFor={id} label={label} required={required} />
      <input
        id={id}
        type="text"
        autoComplete="off"
        list={list}
        autoFocus={autoFocus}
        placeholder={placeholder}
        disabled={disabled}
        aria-invalid={!!error}
        aria-required={required || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${inputClass(!!error)} ${mono ? 'font-mono' : ''}`}
        {...register(name)}
      />
      <Hint>{hint}</Hint>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

export function NumberInput({ name, label, hint, disabled, className = '', required, limit, placeholder }: Base & { limit?: Limit; placeholder?: string }) {
  const { register } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <Label htmlFor={id} label={label} required={required} />
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={limit?.min}
        max={limit?.max}
        step={limit?.step}
        placeholder={placeholder}
        disabled={disabled}
        aria-invalid={!!error}
        aria-required={required || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
        {...register(name, { setValueAs: toNumber })}
      />
      <Hint>{hint}</Hint>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectInput({ name, label, hint, disabled, className = '', required, options, numeric, emptyLabel, hideLabel }: Base & { options: readonly Option[]; numeric?: boolean; emptyLabel?: string; hideLabel?: boolean }) {
  const { control } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <Label htmlFor={id} label={label} required={required} hidden={hideLabel} />
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <select
            id={id}
            ref={field.ref}
            name={field.name}
            disabled={disabled}
            aria-invalid={!!error}
            aria-required={required || undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={inputClass(!!error)}
            value={field.value === null || field.value === undefined ? '' : String(field.value)}
            onBlur={field.onBlur}
            onChange={(e) => field.onChange(numeric ? toNumber(e.target.value) : e.target.value)}
          >
            {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      />
      <Hint>{hint}</Hint>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

export function CheckboxInput({ name, label, hint, disabled, className = '' }: Base) {
  const { register } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <div className={`flex flex-col gap-0.5 ${className}`}>
      <label htmlFor={id} className={`flex items-center gap-2 text-sm ${disabled ? 'opacity-60' : ''}`}>
        <input id={id} type="checkbox" disabled={disabled} className="h-4 w-4 accent-[rgb(var(--accent))]" aria-invalid={!!error} {...register(name)} />
        {label}
      </label>
      <Hint>{hint}</Hint>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

export function TextAreaInput({ name, label, hint, disabled, className = '', required, rows = 4, mono, placeholder }: Base & { rows?: number; mono?: boolean; placeholder?: string }) {
  const { register } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <Label htmlFor={id} label={label} required={required} />
      <textarea
        id={id}
        rows={rows}
        disabled={disabled}
        placeholder={placeholder}
        aria-invalid={!!error}
        aria-required={required || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${inputClass(!!error)} ${mono ? 'font-mono text-xs' : ''}`}
        {...register(name)}
      />
      <Hint>{hint}</Hint>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

/** Yes / No radios for a boolean. */
export function YesNo({ name, label, hint, disabled, className = '' }: Base) {
  const { control } = useFormContext<ActionFormValues>();
  const id = `${useId()}-${name}`;
  const error = useFieldError(name);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <fieldset className={`flex flex-col gap-1 ${className}`} disabled={disabled} aria-describedby={error ? `${id}-error` : undefined}>
          <legend className={labelClass}>{label}</legend>
          <div className={`flex gap-4 text-sm ${disabled ? 'opacity-60' : ''}`}>
            {[true, false].map((v) => (
              <label key={String(v)} className="flex items-center gap-1.5">
                <input type="radio" name={`${id}-radio`} checked={field.value === v} onChange={() => field.onChange(v)} onBlur={field.onBlur} className="accent-[rgb(var(--accent))]" />
                {v ? 'Yes' : 'No'}
              </label>
            ))}
          </div>
          <Hint>{hint}</Hint>
          <ErrorText id={`${id}-error`} message={error} />
        </fieldset>
      )}
    />
  );
}

export const optionsOf = (values: readonly string[], labels?: Record<string, string>): Option[] => values.map((v) => ({ value: v, label: labels?.[v] ?? v }));
