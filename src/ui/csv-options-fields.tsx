import { useState, type ReactNode } from 'react';
import { CSV_SEPARATORS, csvFilename, type CsvSeparator } from '@/api/contracts/jobs';
import { Button } from './button';
import { useSubmit } from './use-submit';

/**
 * The data export menu's options (monitors-actors-reporting.md section 7: separators comma, semicolon,
 * space, tab; delivery popup or download, default download; all events visible or all; quote
 * replacement single or double; a file name forced to end in .csv, default {export}.csv), shared by the
 * Jobs export and the dashboards' CSV export.
 */
export interface CsvOptionValues {
  separator: CsvSeparator;
  delivery: 'download' | 'popup';
  all_events: 'visible' | 'all';
  regex: 'double' | 'single';
  filename: string;
}

const DEFAULT_CSV_VALUES: CsvOptionValues = { separator: 'comma', delivery: 'download', all_events: 'visible', regex: 'double', filename: '' };

const SEPARATOR_LABELS: Record<CsvSeparator, string> = { comma: 'Comma', semicolon: 'Semicolon', space: 'Space', tab: 'Tab' };
const radio = 'flex items-center gap-1.5';

function CsvOptionsFields({ value, onChange, rows, exportName }: { value: CsvOptionValues; onChange: (next: CsvOptionValues) => void; rows: { visible: string; all: string }; exportName: string }) {
  const set = <K extends keyof CsvOptionValues>(k: K, v: CsvOptionValues[K]) => onChange({ ...value, [k]: v });
  return (
    <>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-xs font-medium text-muted">Separator</legend>
        {(Object.keys(CSV_SEPARATORS) as CsvSeparator[]).map((k) => (
          <label key={k} className={radio}>
            <input type="radio" name="separator" value={k} checked={value.separator === k} onChange={() => set('separator', k)} />
            {SEPARATOR_LABELS[k]}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-xs font-medium text-muted">Rows</legend>
        <label className={radio}>
          <input type="radio" name="all_events" checked={value.all_events === 'visible'} onChange={() => set('all_events', 'visible')} />
          {rows.visible}
        </label>
        <label className={radio}>
          <input type="radio" name="all_events" checked={value.all_events === 'all'} onChange={() => set('all_events', 'all')} />
          {rows.all}
        </label>
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-xs font-medium text-muted">Quotes inside values</legend>
        <label className={radio}>
          <input type="radio" name="regex" checked={value.regex === 'double'} onChange={() => set('regex', 'double')} />
          Keep (doubled "")
        </label>
        <label className={radio}>
          <input type="radio" name="regex" checked={value.regex === 'single'} onChange={() => set('regex', 'single')} />
          Replace with single quotes
        </label>
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-xs font-medium text-muted">Delivery</legend>
        <label className={radio}>
          <input type="radio" name="delivery" checked={value.delivery === 'download'} onChange={() => set('delivery', 'download')} />
          Download
        </label>
        <label className={radio}>
          <input type="radio" name="delivery" checked={value.delivery === 'popup'} onChange={() => set('delivery', 'popup')} />
          Popup
        </label>
      </fieldset>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        File name
        <input className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink" value={value.filename} placeholder={`${exportName}.csv`} onChange={(e) => set('filename', e.target.value)} maxLength={200} />
        <span className="font-normal">Saved as {csvFilename(value.filename, exportName)}</span>
      </label>
    </>
  );
}

/**
 * The "Export to CSV" form of the Jobs export and the dashboards' CSV export: the options above, the
 * director's message on failure (the options stay as chosen), Cancel and Export (busy while exporting).
 * `children` come first (the Jobs export's Job Action Report checkbox).
 */
export function CsvExportForm({
  rows,
  exportName,
  onExport,
  onCancel,
  disabled = false,
  children,
}: {
  rows: { visible: string; all: string };
  exportName: string;
  /** Runs the export with the chosen options; the form closes itself by its caller once this resolves. */
  onExport: (options: CsvOptionValues) => Promise<unknown>;
  onCancel: () => void;
  /** Export is disabled (e.g. nothing to export). */
  disabled?: boolean;
  children?: ReactNode;
}) {
  const [options, setOptions] = useState<CsvOptionValues>(DEFAULT_CSV_VALUES);
  const { busy, error, run } = useSubmit();
  return (
    <form
      className="flex flex-col gap-3 text-sm"
      aria-label="Export options"
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => onExport(options));
      }}
    >
      {children}
      <CsvOptionsFields value={options} onChange={setOptions} rows={rows} exportName={exportName} />
      {error && (
        <p role="alert" className="text-red-500">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy || disabled}>
          {busy ? 'Exporting…' : 'Export'}
        </Button>
      </div>
    </form>
  );
}
