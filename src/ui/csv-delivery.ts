import { downloadText } from '@/ui/download';

/**
 * Delivers an exported CSV in the browser: 'download' saves it under its file name; 'popup' shows the
 * text in a new window. Without a DOM (a terminal runner) nothing is delivered and the caller keeps the text.
 */
export function deliverCsv(text: string, filename: string, delivery: 'download' | 'popup'): void {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return;
  if (delivery === 'popup') {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const w = window.open(url, '_blank');
    if (!w) throw new Error('The browser blocked the popup window. Allow popups for Vigil or choose Download.');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return;
  }
  downloadText(filename, text, 'text/csv;charset=utf-8');
}
