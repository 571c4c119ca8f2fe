/**
 * The JSON/text viewer (monitors-actors-reporting.md section 2 "JSON/text viewer modal", MON-020;
 * section 9: copy confirmation 2000 ms, indent 4 spaces, code view 400 px high with tab size 4):
 * 'Copy to Clipboard', a 'Format JSON' whitespace checkbox, and 'Copied JSON to clipboard'. Text that
 * is not JSON is shown as is (the checkbox is then disabled).
 */
import { useEffect, useMemo, useState } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export const COPY_CONFIRMATION_MS = 2000;
export const JSON_INDENT = 4;
export const CODE_VIEW_HEIGHT = 400;
export const CODE_TAB_SIZE = 4;
export const COPIED_TEXT = 'Copied JSON to clipboard';

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The viewer's body: the toolbar and the code view. */
export function JsonViewer({ text, label = 'JSON' }: { text: string; label?: string }) {
  const json = useMemo(() => parsed(text), [text]);
  const [format, setFormat] = useState(true);
  const [copied, setCopied] = useState(false);
  const shown = json.ok ? (format ? JSON.stringify(json.value, null, JSON_INDENT) : JSON.stringify(json.value)) : text;
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    await navigator.clipboard.writeText(shown);
    setCopied(true);
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3 text-sm">
        <Button onClick={() => void copy()}>Copy to Clipboard</Button>
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={json.ok && format} disabled={!json.ok} onChange={(e) => setFormat(e.target.checked)} /> Format JSON
        </label>
        <span role="status" className="text-xs text-emerald-300">
          {copied ? COPIED_TEXT : ''}
        </span>
      </div>
      <pre
        aria-label={label}
        tabIndex={0}
        className="overflow-auto whitespace-pre rounded border border-line bg-surface p-2 font-mono text-xs"
        style={{ height: CODE_VIEW_HEIGHT, tabSize: CODE_TAB_SIZE }}
      >
        {shown}
      </pre>
    </div>
  );
}

/** The viewer in a modal. */
export function JsonViewerModal({ open, title, text, onClose }: { open: boolean; title: string; text: string; onClose(): void }) {
  return (
    <Modal open={open} title={title} onClose={onClose} size="lg">
      <JsonViewer text={text} label="Content" />
    </Modal>
  );
}
