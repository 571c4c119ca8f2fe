import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CommandButton } from '@/commands/command-menu';
import { useSnapshot } from 'valtio';
import { ATTACK_TACTICS, ATTACK_TECHNIQUES, ATTACK_VERSION } from '@/api/contracts/attack';
import { DEFAULT_BLOCK_THRESHOLD, ZERO_COUNTS, type ResultCounts, type TechniqueCell } from '@/api/contracts/reports';
import { describeTimeRange, resolveTimeRange, timeRangeFromQuery, timeRangeToQuery, weekdayQuery, type TimeRangeConfig } from '@/api/contracts/time-range';
import { userTimeZone } from '@/ui/datetime';
import type { PaneProps } from '@/panes/types';
import { ResultBadge, resultBadge } from '@/ui/result-badge';
import { TimeRangePicker } from '@/ui/time-range-picker';
import { useUrlState } from '@/ui/use-url-state';
import { fetchMatrix, fetchTechnique, qk } from './api';
import { NEUTRAL_COLOR, thresholdColor } from './charts/rules';
import { reportsStore } from './store';

/**
 * The ATT&CK view (/analyze/mitre): Enterprise tactics as columns and their techniques as cells, coloured
 * by the prevented share of the runs in the time range (grey: Actions but no runs; blank: no Actions).
 * active_tactics[] (from the radar) narrows the columns; start/end set an absolute range (days=1: by whole
 * days), last=COUNT-UNIT a relative one, and a changed range is written back to the URL. Selecting a
 * cell lists the technique's Actions and their latest runs.
 */

const add = (a: ResultCounts, b: ResultCounts): ResultCounts => {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof ResultCounts)[]) out[k] += b[k];
  return out;
};

const listParam = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export function MitrePane({ params, setParams }: PaneProps) {
  const active = listParam(params.active_tactics);
  const [range, setRange] = useState<TimeRangeConfig>(() => timeRangeFromQuery(params));
  // The range is in the URL (a reload, a bookmark and Back keep it): start/end, days=1, last=7-day, wd=M,T.
  useUrlState(params, setParams, timeRangeToQuery(range), (url) => setRange(timeRangeFromQuery(url)));
  // The draft command reads what "untested" means from the view's range.
  useEffect(() => {
    reportsStore.mitreRange = range;
  }, [range]);
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const { start, end } = resolveTimeRange(range, new Date(minute));
  const p = { start: start.toISOString(), end: end.toISOString(), ...weekdayQuery(range, userTimeZone) };
  const q = useQuery({ queryKey: qk.matrix(p), queryFn: () => fetchMatrix(p) });
  const { technique } = useSnapshot(reportsStore);
  const cells = new Map<string, TechniqueCell>((q.data?.techniques ?? []).map((c) => [c.id, c]));
  // A technique's cell sums its own results and its sub-techniques'.
  const agg = (id: string) => {
    let actions = 0;
    let results = { ...ZERO_COUNTS };
    for (const [code, c] of cells) {
      if (code === id || code.startsWith(`${id}.`)) {
        actions += c.actions;
        results = add(results, c.results);
      }
    }
    return { actions, results };
  };
  const tactics = active.length ? ATTACK_TACTICS.filter((t) => active.includes(t.id)) : ATTACK_TACTICS;
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-line px-3 py-2">
        <h2 className="text-base font-semibold">MITRE ATT&CK</h2>
        <TimeRangePicker value={range} onChange={setRange} debounceMs={0} />
        <span className="text-xs text-muted">{describeTimeRange(range)} · {ATTACK_VERSION} · © The MITRE Corporation</span>
        {active.length > 0 && <span className="text-xs">Tactics: {tactics.map((t) => t.name).join(', ')}</span>}
        <span className="ml-auto">
          <CommandButton command="reports.draftUntested" />
        </span>
      </div>
      {q.isError && <p className="p-3 text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>}
      <div className="flex min-h-0 flex-1">
        <div className="min-w-0 flex-1 overflow-auto p-2" role="grid" aria-label="ATT&CK matrix">
          <div className="flex gap-1" role="row">
            {tactics.map((t) => {
              const techs = ATTACK_TECHNIQUES.filter((x) => !x.parent && x.tactics.includes(t.id));
              return (
                <div key={t.id} className="flex w-36 shrink-0 flex-col gap-0.5" role="rowgroup" aria-label={t.name}>
                  <div className="sticky top-0 bg-panel text-xs font-semibold" role="columnheader">
                    {t.name} <span className="text-muted">{t.id}</span>
                  </div>
                  {techs.map((x) => {
                    const { actions, results } = agg(x.id);
                    const pct = results.total ? Math.round((results.prevented / results.total) * 1000) / 10 : null;
                    const color = pct === null ? (actions ? '#64748b' : 'transparent') : thresholdColor(pct, DEFAULT_BLOCK_THRESHOLD);
                    const label = `${x.id} ${x.name}: ${actions} Actions, ${results.total ? `${pct}% prevented of ${results.total} runs` : 'no runs in range'}`;
                    return (
                      <button
                        key={x.id}
                        type="button"
                        role="gridcell"
                        aria-label={label}
                        title={label}
                        aria-selected={technique === x.id}
                        onClick={() => (reportsStore.technique = x.id)}
                        className={`truncate rounded border px-1 py-0.5 text-left text-[10px] ${technique === x.id ? 'border-accent' : 'border-line/50'} ${actions ? '' : 'opacity-50'}`}
                        style={{ background: color === 'transparent' ? undefined : `${color}55`, borderLeft: `4px solid ${color === 'transparent' ? NEUTRAL_COLOR + '22' : color}` }}
                      >
                        {x.name}
                      </button>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
        {technique && <TechniqueDetail id={technique} />}
      </div>
    </div>
  );
}

function TechniqueDetail({ id }: { id: string }) {
  const q = useQuery({ queryKey: qk.technique(id), queryFn: () => fetchTechnique(id) });
  return (
    <aside className="w-96 shrink-0 overflow-auto border-l border-line p-3" aria-label="Technique detail">
      {q.isPending && <p className="text-sm text-muted">Loading…</p>}
      {q.isError && <p className="text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>}
      {q.data && (
        <>
          <h3 className="text-sm font-semibold">
            {q.data.technique.id} {q.data.technique.name}
          </h3>
          {q.data.actions.length === 0 ? (
            <p className="mt-2 text-sm text-muted">No Action tests this technique yet.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-2">
              {q.data.actions.map((a) => (
                <li key={a.id} className="rounded border border-line p-2 text-sm">
                  <a href={`/manage_sims/action/${a.vid}`} className="font-medium hover:underline">
                    {a.name}
                  </a>{' '}
                  <span className="text-xs text-muted">{a.vid}</span>
                  <div className="mt-1 flex flex-wrap gap-1">
                    {a.latest_runs.length === 0 && <span className="text-xs text-muted">Never run</span>}
                    {a.latest_runs.map((r) => (
                      <a key={r.job_action_id} href={`/jobs/${r.job_id}`} className="flex items-center gap-1 text-xs" title={`Job ${r.job_id} · ${r.job_time.slice(0, 16).replace('T', ' ')}`}>
                        <ResultBadge text={resultBadge({ ...r, action_type: a.action_type })} />
                      </a>
                    ))}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </aside>
  );
}
