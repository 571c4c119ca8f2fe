import { useRef, useState } from 'react';
import { Button } from './button';

/** The file chooser's button label (JOB-068). */
export const BROWSE_LABEL = 'Browse…';

interface FileInputProps {
  /** The input's id, for the field's own `<label htmlFor>`. */
  id: string;
  /** Accept several files at once (JOB-068: one or multiple). */
  multiple?: boolean;
  accept?: string;
  disabled?: boolean;
  invalid?: boolean;
  onFiles(files: File[]): void;
}

/**
 * A file input whose button reads 'Browse…' in every browser (the native one says 'Choose File' in
 * some), with the chosen file names beside it. The native input stays labelled by the field's label.
 */
export function FileInput({ id, multiple = false, accept, disabled = false, invalid = false, onFiles }: FileInputProps) {
  const input = useRef<HTMLInputElement>(null);
  const [names, setNames] = useState<string[]>([]);
  return (
    <div className="flex items-center gap-2">
      <input
        ref={input}
        id={id}
        type="file"
        className="sr-only"
        tabIndex={-1}
        multiple={multiple}
        accept={accept}
        disabled={disabled}
        aria-invalid={invalid}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          setNames(files.map((f) => f.name));
          onFiles(files);
        }}
      />
      <Button disabled={disabled} onClick={() => input.current?.click()}>
        {BROWSE_LABEL}
      </Button>
      <span className="truncate text-sm text-muted" role="status">
        {names.length ? names.join(', ') : multiple ? 'No files chosen' : 'No file chosen'}
      </span>
    </div>
  );
}
