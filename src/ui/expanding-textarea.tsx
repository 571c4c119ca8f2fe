/** The expanding text area (MON-032, MON-179): grows with its lines from 1 to 5 rows, then scrolls. */
import type { TextareaHTMLAttributes } from 'react';

export const TEXTAREA_MIN_ROWS = 1;
export const TEXTAREA_MAX_ROWS = 5;

export function ExpandingTextArea({ value, className = '', ...rest }: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'rows' | 'value'> & { value: string }) {
  const rows = Math.min(TEXTAREA_MAX_ROWS, Math.max(TEXTAREA_MIN_ROWS, value.split('\n').length));
  return <textarea rows={rows} value={value} className={`resize-none rounded border border-line bg-surface px-2 py-1 text-sm ${className}`} {...rest} />;
}
