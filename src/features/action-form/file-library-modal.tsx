/**
 * 'Add File Attachment': upload a file into the library, or pick files from it (columns select, ID,
 * File Name, Tags, SHA256, File Notes; search; sortable; id ascending by default; no pagination).
 */
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { MSG, uploadRestrictionsFor, type FileDisplay, type FileLibraryEntry, type FileUploadAnswer } from '@/api/contracts/action-form';
import { ApiError } from '@/api/http';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { flash } from '@/ui/toasts';
import { libraryFilesQuery, uploadLibraryFile } from './api';
import { inputClass, labelClass, requiredLabelClass } from './controls';
import { useFormEnv } from './form-env';
import { flattenTree } from './tree-select';
import { SortHeader } from '@/ui/table-head';
import { EmptyRow } from './table-parts';
import { useDebounced } from '@/ui/use-debounced';
import { FileInput } from '@/ui/file-input';
import { useSubmit } from '@/ui/use-submit';
import { formatBytes } from '@/ui/bytes';
import { FILE_RESTRICTION_LABELS, type ActionType, type FileRestriction } from '@/api/contracts/vocabulary';

export function RestrictionIcon({ restriction }: { restriction: FileRestriction }) {
  if (restriction === 'pending_approval')
    return (
      <span role="img" aria-label="Pending Approval" title="Pending Approval: the Action cannot run until a permitted user approves this file" className="text-amber-500">
        ⚠
      </span>
    );
  if (restriction === 'restricted_malicious')
    return (
      <span role="img" aria-label="Restricted Malicious" title="Restricted Malicious" className="inline-flex text-red-500">
        <svg viewBox="0 0 16 16" width="14" height="14" fill="currentColor" aria-hidden="true">
          <ellipse cx="8" cy="9.5" rx="3.6" ry="4.5" />
          <circle cx="8" cy="4.2" r="2.2" />
          <path d="M1.5 6.5h3M11.5 6.5h3M1 10h3.2M11.8 10h3.2M1.8 13.5l2.8-1.3M14.2 13.5l-2.8-1.3M5.6 2.3 4.5 1M10.4 2.3 11.5 1" stroke="currentColor" strokeWidth="1.2" strokeLinecap="round" />
        </svg>
      </span>
    );
  return null;
}

type SortKey = 'id' | 'orig_file_name' | 'tags' | 'sha256sum' | 'file_notes';
const tagsOf = (f: FileLibraryEntry) => [...f.verodin_tags, ...f.user_tags].join(', ');

export function sortFiles(files: readonly FileLibraryEntry[], key: SortKey, dir: 'asc' | 'desc'): FileLibraryEntry[] {
  const value = (f: FileLibraryEntry) => (key === 'id' ? f.id : key === 'tags' ? tagsOf(f) : f[key]);
  const sorted = [...files].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { sensitivity: 'base' });
    return c || a.id - b.id;
  });
  return dir === 'asc' ? sorted : sorted.reverse();
}

export function filterFiles(files: readonly FileLibraryEntry[], query: string): FileLibraryEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...files];
  return files.filter((f) => [String(f.id), f.orig_file_name, f.sha256sum, f.file_notes, tagsOf(f)].some((s) => s.toLowerCase().includes(q)));
}

interface Props {
  open: boolean;
  onClose(): void;
  actionType: ActionType;
  attachedIds: readonly number[];
  /** Attaches the files; returns how many were attached. */
  onAttach(files: FileDisplay[]): number;
}

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'id', label: 'ID' },
  { key: 'orig_file_name', label: 'File Name' },
  { key: 'tags', label: 'Tags' },
  { key: 'sha256sum', label: 'SHA256' },
  { key: 'file_notes', label: 'File Notes' },
];

function LibraryTab({ actionType, attachedIds, onAttach, onClose, single }: Omit<Props, 'open'> & { single: boolean }) {
  const { data, isLoading, error } = useQuery(libraryFilesQuery(actionType));
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search, 500);
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'id', dir: 'asc' });
  const [selected, setSelected] = useState<number[]>([]);
  const rows = useMemo(() => sortFiles(filterFiles(data ?? [], debounced), sort.key, sort.dir), [data, debounced, sort]);

  const toggle = (id: number) => setSelected((s) => (single ? [id] : s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const attach = () => {
    const chosen = (data ?? []).filter((f) => selected.includes(f.id));
    const dupes = chosen.filter((f) => attachedIds.includes(f.id));
    if (dupes.length) flash('alert', MSG.duplicateAttach);
    const fresh = chosen.filter((f) => !attachedIds.includes(f.id));
    if (fresh.length && onAttach(fresh) > 0) {
      flash('notice', MSG.attached);
      onClose();
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <input type="search" aria-label="Search files" placeholder="Search by name, tag, SHA256 or notes" className={inputClass(false)} value={search} onChange={(e) => setSearch(e.target.value)} autoFocus />
      {isLoading && <div className="text-muted">Loading files…</div>}
      {error && <div role="alert">{error.message}</div>}
      {data && (
        <div className="max-h-[50vh] overflow-auto rounded border border-line">
          <table className="w-full text-left text-xs" aria-label="File Library">
            <thead className="sticky top-0 bg-raised text-2xs text-muted uppercase">
              <tr>
                <th className="w-8 px-2 py-1">
                  <span className="sr-only">Select</span>
                </th>
                {COLUMNS.map((c) => (
                  <SortHeader key={c.key} label={c.label} sortKey={c.key} sort={sort} setSort={setSort} className="px-2 py-1 whitespace-nowrap" />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && <EmptyRow columns={6}>No files match.</EmptyRow>}
              {rows.map((f) => {
                const attached = attachedIds.includes(f.id);
                return (
                  <tr key={f.id} className={`border-t border-line/50 ${selected.includes(f.id) ? 'bg-accent/10' : ''}`} onDoubleClick={() => toggle(f.id)}>
                    <td className="px-2 py-1">
                      <input
                        type={single ? 'radio' : 'checkbox'}
                        name="library-file"
                        aria-label={`Select ${f.orig_file_name}`}
                        checked={selected.includes(f.id)}
                        onChange={() => toggle(f.id)}
                        className="accent-[rgb(var(--accent))]"
                      />
                    </td>
                    <td className="px-2 py-1 font-mono">{f.id}</td>
                    <td className="px-2 py-1">
                      <span className="inline-flex items-center gap-1">
                        <RestrictionIcon restriction={f.file_restrictions} />
                        {f.orig_file_name}
                        {attached && <span className="rounded bg-raised px-1 text-2xs text-muted">attached</span>}
                      </span>
                    </td>
                    <td className="px-2 py-1">{tagsOf(f)}</td>
                    <td className="max-w-40 truncate px-2 py-1 font-mono" title={f.sha256sum}>
                      {f.sha256sum}
                    </td>
                    <td className="px-2 py-1">{f.file_notes}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex items-center justify-between">
        <span className="text-2xs text-muted">
          {rows.length} file{rows.length === 1 ? '' : 's'}
          {actionType === 'cloud' ? ' (files restricted as malicious are not offered for cloud Actions)' : ''}
        </span>
        <Button variant="primary" disabled={selected.length === 0} onClick={attach}>
          Attach Selected
        </Button>
      </div>
    </div>
  );
}

type UploadErrors = Partial<Record<'file_upload' | 'file_restrictions' | 'file_notes' | 'file_attrib_ids' | 'os_tree_id' | 'zipfile_password' | 'base', string>>;

const UPLOAD_FIELDS = { file_upload: 1, file_restrictions: 1, file_notes: 1, file_attrib_ids: 1, os_tree_id: 1, zipfile_password: 1 };

/** A failed upload's messages beside their fields (the director's `errors`), the rest under the form. */
function uploadErrorsOf(err: unknown, message: string): UploadErrors {
  if (!(err instanceof ApiError && err.body && typeof err.body === 'object')) return { base: message };
  const fieldErrors = (err.body as { errors?: Record<string, string[]> }).errors ?? {};
  const next: UploadErrors = {};
  for (const [k, v] of Object.entries(fieldErrors)) next[(k in UPLOAD_FIELDS ? k : 'base') as keyof UploadErrors] = v.join(' ');
  if (!Object.keys(next).length && err.message !== MSG.uploadFailed) next.base = err.message;
  return next;
}

function UploadTab({ actionType, attachedIds, onAttach, onClose }: Omit<Props, 'open'>) {
  const env = useFormEnv();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [restriction, setRestriction] = useState<FileRestriction | ''>('');
  const [notes, setNotes] = useState('');
  const [attribs, setAttribs] = useState<number[]>([]);
  const [os, setOs] = useState('');
  const [zipCheck, setZipCheck] = useState(false);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<UploadErrors>({});
  const [failed, setFailed] = useState(false);
  const { busy, run } = useSubmit({
    onError: (message, err) => {
      setFailed(true);
      setErrors(uploadErrorsOf(err, message));
    },
  });
  const [result, setResult] = useState<FileUploadAnswer | null>(null);
  const restrictions = uploadRestrictionsFor(actionType);
  const fileAttribs = env.tags.filter((t) => t.tag_type === 'file_attachment');
  const osTree = env.def.dimension_trees.find((t) => t.type === 'os_platform');
  const osNodes = useMemo(() => (osTree ? flattenTree(osTree.tree) : []), [osTree]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: UploadErrors = {};
    if (!file) local.file_upload = MSG.cantBeBlank;
    if (!restriction) local.file_restrictions = MSG.cantBeBlank;
    setErrors(local);
    if (Object.keys(local).length || !file) {
      setFailed(true);
      return;
    }
    const form = new FormData();
    form.append('file_restrictions', restriction);
    form.append('file_notes', notes);
    attribs.forEach((a) => form.append('file_attrib_ids[]', String(a)));
    if (os) form.append('os_tree_id', os);
    form.append('zipfile_check', String(zipCheck));
    if (zipCheck) form.append('zipfile_password', password);
    form.append('action_type', actionType);
    form.append('file_upload', file, file.name);
    setFailed(false);
    await run(async () => {
      const answer = await uploadLibraryFile(form);
      void queryClient.invalidateQueries({ queryKey: ['action-form', 'files'] });
      if (attachedIds.includes(answer.id)) flash('alert', MSG.duplicateAttach);
      else if (onAttach([answer]) > 0) flash('notice', MSG.uploadedAttached);
      if (answer.zip_entries?.length) setResult(answer);
      else onClose();
    });
  };

  if (result) {
    return (
      <div className="flex flex-col gap-2" role="region" aria-label="Uploaded zip entries">
        <p className="text-sm">
          Uploaded <strong>{result.orig_file_name}</strong> (SHA256 <code className="font-mono text-xs">{result.sha256sum}</code>). Its entries:
        </p>
        <div className="max-h-[40vh] overflow-auto rounded border border-line">
          <table className="w-full text-left text-xs" aria-label="Zip entries">
            <thead className="bg-raised text-2xs text-muted uppercase">
              <tr>
                <th className="px-2 py-1">Name</th>
                <th className="px-2 py-1">Size</th>
                <th className="px-2 py-1">SHA256</th>
                <th className="px-2 py-1">Encrypted</th>
              </tr>
            </thead>
            <tbody>
              {result.zip_entries!.map((z) => (
                <tr key={z.name} className="border-t border-line/50">
                  <td className="px-2 py-1">{z.name}</td>
                  <td className="px-2 py-1" title={`${z.size} bytes`}>
                    {formatBytes(z.size)}
                  </td>
                  <td className="px-2 py-1 font-mono">{z.sha256sum}</td>
                  <td className="px-2 py-1">{z.encrypted ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="flex justify-end">
          <Button variant="primary" onClick={onClose} autoFocus>
            Done
          </Button>
        </div>
      </div>
    );
  }

  const err = (k: keyof UploadErrors) =>
    errors[k] ? (
      <span id={`upload-${k}-error`} className="text-xs text-red-400" data-field-error>
        {errors[k]}
      </span>
    ) : null;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="File Upload">
      {failed && (
        <div role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
          {MSG.uploadFailed}
          {errors.base ? ` ${errors.base}` : ''}
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor="upload-file" className={requiredLabelClass}>
          File
        </label>
        <FileInput id="upload-file" invalid={!!errors.file_upload} onFiles={(files) => setFile(files[0] ?? null)} />
        {err('file_upload')}
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="upload-restriction" className={requiredLabelClass}>
            File Restrictions
          </label>
          <select id="upload-restriction" className={inputClass(!!errors.file_restrictions)} value={restriction} onChange={(e) => setRestriction(e.target.value as FileRestriction | '')}>
            <option value="">Select…</option>
            {restrictions.map((r) => (
              <option key={r} value={r}>
                {r === 'none' ? 'None (held in Pending Approval until approved)' : FILE_RESTRICTION_LABELS[r]}
              </option>
            ))}
          </select>
          {err('file_restrictions')}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="upload-os" className={labelClass}>
            OS/Platform
          </label>
          <select id="upload-os" className={inputClass(!!errors.os_tree_id)} value={os} onChange={(e) => setOs(e.target.value)}>
            <option value="">Any</option>
            {osNodes.map((n) => (
              <option key={n.node.id} value={n.node.id}>
                {n.path.join(' › ')}
              </option>
            ))}
          </select>
          {err('os_tree_id')}
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="upload-notes" className={labelClass}>
          File Notes
        </label>
        <textarea id="upload-notes" rows={2} className={inputClass(!!errors.file_notes)} value={notes} onChange={(e) => setNotes(e.target.value)} />
        {err('file_notes')}
      </div>
      <fieldset className="flex flex-col gap-1">
        <legend className={labelClass}>File Attributes</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {fileAttribs.map((t) => (
            <label key={t.id} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                className="accent-[rgb(var(--accent))]"
                checked={attribs.includes(t.id)}
                onChange={(e) => setAttribs(e.target.checked ? [...attribs, t.id] : attribs.filter((a) => a !== t.id))}
              />
              {t.name}
            </label>
          ))}
        </div>
        {err('file_attrib_ids')}
      </fieldset>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="accent-[rgb(var(--accent))]" checked={zipCheck} onChange={(e) => setZipCheck(e.target.checked)} />
          Zip file: list and hash its entries
        </label>
        {zipCheck && (
          <div className="flex flex-col gap-1">
            <label htmlFor="upload-zip-password" className={labelClass}>
              Zip Password
            </label>
            <input id="upload-zip-password" type="password" autoComplete="off" className={inputClass(!!errors.zipfile_password)} value={password} onChange={(e) => setPassword(e.target.value)} />
            {err('zipfile_password')}
          </div>
        )}
      </div>
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload and Attach'}
        </Button>
      </div>
    </form>
  );
}

export function FileLibraryModal({ open, onClose, actionType, attachedIds, onAttach }: Props) {
  const single = actionType === 'file_transfer';
  const tabClass = ({ selected }: { selected: boolean }) => `rounded-t border-b-2 px-3 py-1.5 text-sm ${selected ? 'border-accent font-semibold text-ink' : 'border-transparent text-muted hover:text-ink'}`;
  return (
    <Modal open={open} onClose={onClose} title="Add File Attachment" size="lg">
      {open && (
        <TabGroup defaultIndex={1}>
          <TabList className="mb-3 flex gap-1 border-b border-line">
            <Tab className={tabClass}>File Upload</Tab>
            <Tab className={tabClass}>File Library</Tab>
          </TabList>
          <TabPanels>
            <TabPanel>
              <UploadTab actionType={actionType} attachedIds={attachedIds} onAttach={onAttach} onClose={onClose} />
            </TabPanel>
            <TabPanel>
              <LibraryTab actionType={actionType} attachedIds={attachedIds} onAttach={onAttach} onClose={onClose} single={single} />
            </TabPanel>
          </TabPanels>
        </TabGroup>
      )}
    </Modal>
  );
}
