/**
 * The colour picker (monitors-actors-reporting.md MON-029, MON-114): a text field and a swatch. The
 * swatch opens the browser's colour chooser; the text takes #RRGGBB. Its message: 'Please select a
 * color' when empty, 'Invalid format. Use example: #FFFFFF' otherwise (shown once the field was left).
 */
import { useId, useState } from 'react';
import { HEX_COLOR, colorError } from '@/api/contracts/site-banner';

export function ColorInput({ label, value, onChange, error }: { label: string; value: string; onChange(value: string): void; error?: string | null | undefined }) {
  const id = useId();
  const [touched, setTouched] = useState(false);
  const message = error ?? (touched ? colorError(value) : null);
  const swatch = HEX_COLOR.test(value.trim()) ? value.trim() : '#000000';
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} swatch`}
          value={swatch.toLowerCase()}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
          className="h-8 w-10 cursor-pointer rounded border border-line bg-surface p-0.5"
        />
        <input
          id={id}
          type="text"
          value={value}
          placeholder="#FFFFFF"
          spellCheck={false}
          aria-invalid={!!message}
          aria-describedby={message ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value)}
          onBlur={() => setTouched(true)}
          className={`w-28 rounded border bg-surface px-2 py-1.5 font-mono text-sm ${message ? 'border-red-500' : 'border-line'}`}
        />
      </div>
      {message && (
        <span id={`${id}-error`} role="alert" className="text-xs text-red-400">
          {message}
        </span>
      )}
    </div>
  );
}
