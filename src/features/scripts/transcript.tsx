import type { TranscriptStep } from '@/commands/script/run';
import { TableHead, type Column } from '@/ui/table-head';

const COLUMNS: Column[] = [{ label: 'Status' }, { label: 'Line' }, { label: 'Step' }, { label: 'Time', right: true }, { label: 'Result or error' }];

const STATUS_STYLE = { ok: 'text-emerald-400', failed: 'text-red-400', skipped: 'text-muted', stopped: 'text-amber-600 dark:text-amber-300' } as const;

export function Transcript({ steps, running }: { steps: readonly TranscriptStep[]; running: boolean }) {
  if (steps.length === 0) return <div className="px-3 py-2 text-muted">{running ? 'Running…' : 'Run the script to see its transcript here.'}</div>;
  return (
    <table className="w-full text-left text-xs" aria-label="Transcript">
      <TableHead columns={COLUMNS} dense cellClassName="px-2 py-1" className="sticky top-0 bg-panel" />
      <tbody>
        {steps.map((s) => (
          <tr key={s.index} className="border-t border-line/50 align-top">
            <td className={`px-2 py-1 font-semibold ${STATUS_STYLE[s.status]}`}>{s.status}</td>
            <td className="px-2 py-1 font-mono">{s.line}</td>
            <td className="px-2 py-1 font-mono break-all">{s.source || '(syntax error)'}</td>
            <td className="px-2 py-1 text-right font-mono whitespace-nowrap">{Math.round(s.durationMs)} ms</td>
            <td className={`px-2 py-1 font-mono break-all ${s.error ? 'text-red-300' : ''}`}>{s.error ?? s.result ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
