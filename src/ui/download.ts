/** Saves text as a file in the browser (an object URL and a temporary link). Does nothing without a DOM. */
export function downloadText(filename: string, text: string, type: string): void {
  if (typeof Blob === 'undefined') return;
  downloadBytes(filename, new Blob([text], { type }), type);
}

/** Saves bytes as a file in the browser. Does nothing without a DOM. */
export function downloadBytes(filename: string, bytes: Uint8Array | Blob, type: string): void {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return;
  const blob = bytes instanceof Blob ? bytes : new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
