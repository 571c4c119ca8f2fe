/** Attached files of email, host_cli, cloud and file_transfer Actions: the name cell, the files table and the Add File button. */
import { useState, type ReactNode } from 'react';
import { MSG, type FileDisplay } from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';
import { FileLibraryModal, RestrictionIcon } from './file-library-modal';
import { useFormEnv } from './form-env';
import { RemoveHeader, tableClass, tdClass, thClass } from './table-parts';
import { type ActionType } from '@/api/contracts/vocabulary';

export function FileLabel({ fileId }: { fileId: number }) {
  const { knownFiles } = useFormEnv();
  const f = knownFiles[fileId];
  return (
    <span className="flex flex-col">
      <span className="inline-flex items-center gap-1">
        {f && <RestrictionIcon restriction={f.file_restrictions} />}
        <span className="font-medium">{f?.orig_file_name ?? `File ${fileId}`}</span>
        {f?.file_restrictions === 'restricted_malicious' && <span className="text-2xs text-red-500">Restricted Malicious</span>}
        {f?.file_restrictions === 'pending_approval' && <span className="text-2xs text-amber-600">Pending Approval</span>}
      </span>
      {f && (
        <span className="max-w-56 truncate font-mono text-2xs text-muted" title={f.sha256sum}>
          {f.sha256sum}
        </span>
      )}
    </span>
  );
}

/** 'Add File' and its modal; attaching refuses files already attached with the spec's text. */
export function AddFileButton({ type, attachedIds, onAttach, disabled, disabledReason }: { type: ActionType; attachedIds: number[]; onAttach(files: FileDisplay[]): void; disabled?: boolean; disabledReason?: string }) {
  const env = useFormEnv();
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="flex items-center gap-2">
        <Button onClick={() => setOpen(true)} disabled={disabled || !env.canCreate} aria-describedby={disabledReason ? 'add-file-reason' : undefined}>
          + Add File
        </Button>
        {disabledReason && (
          <span id="add-file-reason" className="text-2xs text-muted">
            {disabledReason}
          </span>
        )}
      </div>
      <FileLibraryModal
        open={open}
        onClose={() => setOpen(false)}
        actionType={type}
        attachedIds={attachedIds}
        onAttach={(files) => {
          const fresh = files.filter((f) => !attachedIds.includes(f.id));
          if (fresh.length < files.length) flash('alert', MSG.duplicateAttach);
          if (!fresh.length) return 0;
          env.rememberFiles(fresh);
          onAttach(fresh);
          return fresh.length;
        }}
      />
    </>
  );
}

export function unattachedNotice() {
  flash('notice', MSG.unattached);
}

/** A column of an attachment table beyond the file itself: its header and its cell for the row at an index. */
export interface AttachmentColumn {
  header: string;
  cell(index: number): ReactNode;
}

/**
 * The table of a type's attached files: the file (name, restriction, SHA256), the type's own columns,
 * and a Remove button that says the file stays in the File Library.
 */
export function AttachmentTable({
  label,
  rows,
  fileIdAt,
  columns,
  disabled,
  onRemove,
}: {
  label: string;
  /** The field array's rows (their stable ids and the file each was attached with). */
  rows: readonly { id: string; file_id: number }[];
  /** The file of a row as the form holds it now. */
  fileIdAt(index: number): number | undefined;
  columns: readonly AttachmentColumn[];
  disabled: boolean;
  onRemove(index: number): void;
}) {
  return (
    <table className={tableClass} aria-label={label}>
      <thead>
        <tr>
          <th className={thClass}>File</th>
          {columns.map((c) => (
            <th key={c.header} className={thClass}>
              {c.header}
            </th>
          ))}
          <RemoveHeader />
        </tr>
      </thead>
      <tbody>
        {rows.map((f, i) => (
          <tr key={f.id} className="border-t border-line/50">
            <td className={tdClass}>
              <FileLabel fileId={fileIdAt(i) ?? f.file_id} />
            </td>
            {columns.map((c) => (
              <td key={c.header} className={tdClass}>
                {c.cell(i)}
              </td>
            ))}
            <td className={`${tdClass} text-right`}>
              <Button
                variant="ghost"
                disabled={disabled}
                onClick={() => {
                  onRemove(i);
                  unattachedNotice();
                }}
              >
                Remove
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
