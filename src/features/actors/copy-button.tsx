import { useEffect, useState } from 'react';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';

/** Copies text to the clipboard; says "Copied" for 2000 ms (section 9: copy confirmation). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <Button
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
        } catch {
          flash('alert', 'The browser did not allow copying to the clipboard; select the text and copy it.');
        }
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

/** A command or secret shown in full, selectable, with its copy button. */
export function CopyBlock({ text, label, stacked = false }: { text: string; label: string; stacked?: boolean }) {
  return (
    <div className={`flex gap-2 ${stacked ? 'flex-col items-end' : 'items-start'}`}>
      <pre aria-label={label} className="w-full min-w-0 flex-1 overflow-x-auto rounded border border-line bg-surface px-2 py-1.5 font-mono text-2xs whitespace-pre-wrap break-all select-all">
        {text}
      </pre>
      <CopyButton text={text} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
