import { forwardRef, type InputHTMLAttributes } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
}

/** A labelled input with its error under it, linked for screen readers. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, id, className = '', ...rest }, ref) {
  const inputId = id ?? `f-${rest.name ?? label.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-xs font-medium text-muted">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={!!error}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={`rounded border bg-surface px-2 py-1.5 text-sm ${error ? 'border-red-500' : 'border-line'} ${className}`}
        {...rest}
      />
      {error && (
        <span id={`${inputId}-error`} className="text-xs text-red-400">
          {error}
        </span>
      )}
    </div>
  );
});
