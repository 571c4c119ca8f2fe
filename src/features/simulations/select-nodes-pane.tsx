import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CttnActor, SimulationPreview } from '@/api/contracts/simulations';
import { SIMULATION_TYPE_LABELS } from '@/api/contracts/simulations';
import { CommandButton, commandHotkeyText } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';
import { NO_VALID_TARGETS, assignSteps, validTargets, withChoice, type AssignStep } from './assignment';
import { SequenceMap, type Phase } from './select-nodes-map';
import { ErrorNote, useSimulation } from './simulation-view';

/** How long the typed letters of a type-ahead search are kept. */
const TYPEAHEAD_MS = 700;

/**
 * Arrow keys move the highlighted option of a listbox (Page keys by a page, Home and End to the ends);
 * Enter picks it. With `nameAt`, typing letters highlights the next option whose name starts with them
 * (the type-ahead of a listbox), so one actor among hundreds is a few keys away.
 */
function useListKeys(count: number, pick: (i: number) => void, start = 0, page = 10, nameAt?: (i: number) => string) {
  const [at, setAt] = useState(start);
  const typed = useRef({ text: '', at: 0 });
  const index = Math.min(at, Math.max(0, count - 1));
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -count, End: count };
  const typeAhead = (key: string) => {
    const now = Date.now();
    const text = (now - typed.current.at < TYPEAHEAD_MS ? typed.current.text : '') + key.toLowerCase();
    typed.current = { text, at: now };
    // A new search starts after the highlighted option; more letters refine the one highlighted.
    const from = text.length === 1 ? index + 1 : index;
    for (let k = 0; k < count; k++) {
      const i = (from + k) % count;
      if (nameAt!(i).toLowerCase().startsWith(text)) {
        setAt(i);
        return;
      }
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key in moves) {
      e.preventDefault();
      setAt(Math.max(0, Math.min(count - 1, index + moves[e.key]!)));
    } else if (e.key === 'Enter' || (e.key === ' ' && Date.now() - typed.current.at >= TYPEAHEAD_MS)) {
      e.preventDefault();
      if (count) pick(index);
    } else if (nameAt && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && count) {
      e.preventDefault();
      typeAhead(e.key);
    }
  };
  return { index, setAt, onKeyDown };
}

const actorLabel = (a: CttnActor | undefined, id: number | null) => (a ? `${a.name}${a.zone_name ? ` (${a.zone_name})` : ''}` : id === null ? '' : `Actor ${id}`);

function stepTitle(s: AssignStep): string {
  const name = s.step.name || `Group ${s.n}`;
  return s.disabledReason ? `DISABLED: ${name}: ${s.disabledReason}` : `Step ${s.n}: ${name}${s.single ? ' (single actor)' : ''}`;
}

function StepsList({ steps, active, actors, onActivate }: { steps: AssignStep[]; active: number; actors: Map<number, CttnActor>; onActivate: (n: number) => void }) {
  const selectable = steps.filter((s) => !s.disabledReason);
  const keys = useListKeys(selectable.length, (i) => onActivate(selectable[i]!.n), Math.max(0, selectable.findIndex((s) => s.n === active)));
  useEffect(() => keys.setAt(Math.max(0, selectable.findIndex((s) => s.n === active))), [active]);
  return (
    <ol
      role="listbox"
      aria-label="Steps"
      tabIndex={0}
      aria-activedescendant={selectable[keys.index] ? `assign-step-${selectable[keys.index]!.n}` : undefined}
      onKeyDown={keys.onKeyDown}
      className="flex flex-col gap-1 focus:outline focus:outline-accent"
    >
      {steps.map((s) => {
        const highlighted = selectable[keys.index]?.n === s.n;
        return (
          <li
            key={s.n}
            id={`assign-step-${s.n}`}
            role="option"
            aria-selected={s.n === active}
            aria-disabled={!!s.disabledReason}
            title={stepTitle(s)}
            onClick={() => !s.disabledReason && onActivate(s.n)}
            className={`cursor-pointer rounded border px-2 py-1 ${s.n === active ? 'border-accent bg-accent/10' : 'border-line'} ${highlighted ? 'outline outline-1 outline-accent/60' : ''} ${s.disabledReason ? 'cursor-not-allowed opacity-60' : ''}`}
          >
            <div className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate font-medium">{s.disabledReason ? `DISABLED ${s.step.name || `Group ${s.n}`}` : `${s.n}. ${s.step.name || `Group ${s.n}`}`}</span>
              {s.single && !s.disabledReason && <span className="rounded border border-line px-1 text-2xs text-muted">single actor</span>}
              {s.done && !s.disabledReason && <span className="text-2xs text-emerald-500">✓</span>}
            </div>
            {s.disabledReason ? (
              <div className="text-2xs text-muted">Cannot run: {s.disabledReason}</div>
            ) : (
              <div className="text-2xs text-muted" data-testid={`assignment-${s.n}`}>
                {s.attacker === null ? 'No attacker yet' : `Attacker: ${actorLabel(actors.get(s.attacker), s.attacker)}`}
                {!s.single && s.attacker !== null && (s.target === null ? ' · No target yet' : ` → Target: ${actorLabel(actors.get(s.target), s.target)}`)}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The actors lists' rows: fixed height, so a list of thousands renders only the rows in view. */
const ROW_PX = 24;
const LIST_PX = 288;
const OVERSCAN = 8;

function ActorList({ label, actors, onPick, focus }: { label: string; actors: CttnActor[]; onPick: (a: CttnActor) => void; focus: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const keys = useListKeys(actors.length, (i) => onPick(actors[i]!), 0, LIST_PX / ROW_PX - 1, (i) => actors[i]!.name);
  const [top, setTop] = useState(0);
  useEffect(() => {
    keys.setAt(0);
    if (ref.current) ref.current.scrollTop = 0;
    setTop(0);
    if (focus) ref.current?.focus();
  }, [label]);
  // The highlighted row stays in view (the list scrolls to it as the keys move it).
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const y = keys.index * ROW_PX;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW_PX > el.scrollTop + LIST_PX) el.scrollTop = y + ROW_PX - LIST_PX;
  }, [keys.index]);
  if (!actors.length) return <p className="text-muted">No Actors have connected to this director yet.</p>;
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(actors.length, Math.ceil((top + LIST_PX) / ROW_PX) + OVERSCAN);
  const rows = [...actors.slice(first, last).map((a, i) => [a, first + i] as const)];
  // The highlighted option is always rendered (aria-activedescendant names it), even before the scroll lands.
  if (keys.index < first || keys.index >= last) rows.push([actors[keys.index]!, keys.index]);
  return (
    <div
      ref={ref}
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={actors[keys.index] ? `assign-actor-${actors[keys.index]!.id}` : undefined}
      onKeyDown={keys.onKeyDown}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      style={{ height: Math.min(LIST_PX, actors.length * ROW_PX) + 2 }}
      className="relative shrink-0 overflow-auto rounded border border-line focus:outline focus:outline-accent"
    >
      <div style={{ height: actors.length * ROW_PX }} className="relative">
        {rows.map(([a, i]) => (
          <div
            key={a.id}
            id={`assign-actor-${a.id}`}
            role="option"
            aria-selected={i === keys.index}
            aria-setsize={actors.length}
            aria-posinset={i + 1}
            onClick={() => onPick(a)}
            style={{ top: i * ROW_PX, height: ROW_PX }}
            className={`absolute left-0 flex w-full cursor-pointer items-center gap-2 px-2 ${i === keys.index ? 'bg-accent/20' : ''}`}
          >
            <span className="min-w-0 flex-1 truncate">{a.name}</span>
            <span className="text-2xs text-muted">{a.zone_name ?? 'no zone'}</span>
            <span className={`text-2xs ${a.status === 'online' ? 'text-emerald-500' : 'text-muted'}`}>{a.status}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

const NO_STEPS = { steps: [] as AssignStep[], removed: [] as string[] };

/**
 * The steps beside the map. Neither waits for the other: the simulation's call and the map's run side
 * by side (prefetched with the pane's code), the steps list is drawn when the first answers, the map
 * when its own does (nothing can be chosen on it until the steps are in).
 */
function Assignment({ p, error, params, setParams }: { p: SimulationPreview | undefined; error: unknown; params: Record<string, string>; setParams: (next: Record<string, string>) => void }) {
  const { steps, removed } = useMemo(() => (p ? assignSteps(p, params) : NO_STEPS), [p, params]);
  const actors = useMemo(() => new Map((p?.options.cttn_attackers ?? []).map((a) => [a.id, a])), [p]);
  const firstOpen = steps.find((s) => !s.done)?.n ?? steps.find((s) => !s.disabledReason)?.n ?? 1;
  // The step chosen (a click, a finished choice, back/forward); until then the first one left open.
  const [chosen, setActive] = useState<number | null>(null);
  const active = chosen ?? firstOpen;
  const [problem, setProblem] = useState<string | null>(null);
  // Where the last choice was made: the lists take the focus after a choice made in them, the map keeps it.
  const [via, setVia] = useState<'list' | 'map'>('list');
  const mapRef = useRef<HTMLDivElement>(null);
  const step = steps.find((s) => s.n === active && !s.disabledReason) ?? steps.find((s) => s.n === firstOpen);

  useEffect(() => {
    for (const m of removed) flash('info', m);
  }, [p?.id]);

  // Back and forward change the assignment from outside: the first step left open becomes active again.
  const ours = useRef(paramsKey(params));
  useEffect(() => {
    const key = paramsKey(params);
    if (key === ours.current) return;
    ours.current = key;
    const open = steps.find((s) => !s.done);
    if (open) setActive(open.n);
  }, [params]);
  const assign = (next: Record<string, string>) => {
    ours.current = paramsKey(next);
    setParams(next);
  };

  const choose = (role: 'attacker' | 'target', a: CttnActor | number, from: 'list' | 'map') => {
    if (!step || !p) return;
    const id = typeof a === 'number' ? a : a.id;
    setVia(from);
    if (role === 'attacker' && !step.single && validTargets(p, id).length === 0) {
      setProblem(NO_VALID_TARGETS);
      return;
    }
    setProblem(null);
    const next = withChoice(params, step.n, role, id);
    assign(next);
    const finished = role === 'target' || step.single;
    if (finished) {
      const after = assignSteps(p, next).steps.find((s) => !s.done);
      if (after) setActive(after.n);
    }
  };

  const phase: Phase = !step ? 'done' : step.attacker === null ? 'attacker' : !step.single && step.target === null ? 'target' : 'done';
  const targetIds = useMemo(() => (p && step?.attacker ? validTargets(p, step.attacker) : []), [p, step?.attacker]);
  const targets = targetIds.map((id) => actors.get(id)).filter((a): a is CttnActor => !!a);
  const attackerIds = useMemo(() => (p?.options.cttn_attackers ?? []).map((a) => a.id), [p]);
  const choosable = phase === 'attacker' ? attackerIds : phase === 'target' ? targetIds : NONE;
  const complete = steps.every((s) => s.done) && steps.some((s) => !s.disabledReason);
  const runKey = commandHotkeyText(commands, 'simulations.runAssigned');
  const refused = (id: number) => {
    setVia('map');
    if (phase === 'attacker') setProblem(`${actorLabel(actors.get(id), id)} has not connected to this director, so it cannot attack.`);
    else if (phase === 'target') setProblem(`${actorLabel(actors.get(id), id)} cannot be reached from ${actorLabel(actors.get(step!.attacker!), step!.attacker)}: choose one of the highlighted actors.`);
  };

  return (
    <div className="flex h-full min-h-0 gap-4 p-4 text-sm">
      <section className="flex w-80 shrink-0 flex-col gap-2 overflow-auto" aria-label="Groups">
        {!p ? (
          error ? <ErrorNote error={error} /> : <p className="text-muted" role="status">Loading Details</p>
        ) : (
          <>
            <h2 className="text-base font-semibold">
              {SIMULATION_TYPE_LABELS[p.simulation_type]} {p.vid}: {p.name}
            </h2>
            {removed.length > 0 && (
              <ul role="status" className="flex flex-col gap-0.5 text-2xs text-amber-500">
                {removed.map((m) => <li key={m}>{m}</li>)}
              </ul>
            )}
            {steps.length === 0 ? <p className="text-muted">This simulation has no groups with Actions to run.</p> : <StepsList steps={steps} active={step?.n ?? active} actors={actors} onActivate={(n) => { setProblem(null); setActive(n); }} />}
            <div className="mt-2 flex gap-2">
              <CommandButton command="simulations.runAssigned" variant="primary" disabled={!complete}>Run</CommandButton>
            </div>
            {!complete && steps.length > 0 && <p className="text-2xs text-muted">Choose the actors of every step to run.</p>}
            <section className="mt-2 flex flex-col gap-2" aria-label="Actors">
              {step && phase === 'attacker' && (
                <>
                  <h3 className="font-semibold">Step {step.n}: choose the attacker{step.single ? ' (this step runs on a single actor)' : ''}</h3>
                  <ActorList label={`Attackers for step ${step.n}`} actors={p.options.cttn_attackers} onPick={(a) => choose('attacker', a, 'list')} focus={via === 'list'} />
                </>
              )}
              {step && phase === 'target' && (
                <>
                  <h3 className="font-semibold">Step {step.n}: choose the target for {actorLabel(actors.get(step.attacker!), step.attacker)}</h3>
                  <ActorList label={`Targets for step ${step.n}`} actors={targets} onPick={(a) => choose('target', a, 'list')} focus={via === 'list'} />
                  <div><Button onClick={() => assign(withChoice(params, step.n, 'attacker', null))}>Change Attacker</Button></div>
                </>
              )}
              {step && phase === 'done' && (
                <>
                  <h3 className="font-semibold">{complete ? `Every step has its actors: Run${runKey ? ` (${runKey})` : ''} starts the job.` : `Step ${step.n} is assigned`}</h3>
                  <div><Button onClick={() => assign(withChoice(params, step.n, 'attacker', null))}>Change Actors</Button></div>
                </>
              )}
            </section>
          </>
        )}
      </section>
      <section className="relative flex min-w-0 flex-1 flex-col gap-2" aria-label="Map">
        {/* Over the map, not above it: a message must not resize the map (a resize fits it again, losing the operator's zoom and pan). */}
        {problem && <p role="alert" className="absolute inset-x-3 bottom-12 z-20 rounded border border-red-500/60 bg-red-950/95 p-2 shadow-lg">{problem}</p>}
        {!error && (
          <SequenceMap
            loading={!p}
            step={step?.n ?? null}
            phase={phase}
            attacker={step?.attacker ?? null}
            target={step?.target ?? null}
            choosable={choosable}
            actors={actors}
            focusRef={mapRef}
            onPick={(id) => choose(phase === 'target' ? 'target' : 'attacker', id, 'map')}
            onRefused={refused}
          />
        )}
      </section>
    </div>
  );
}

const NONE: readonly number[] = [];
const paramsKey = (params: Record<string, string>) => JSON.stringify(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));

/** /simulations/select_nodes?sim_id={id}&attack_node_id_{n}={id}&target_node_id_{n}={id} (JOB-027, JOB-060). */
export function SelectNodesPane({ params, setParams }: PaneProps) {
  const id = Number(params.sim_id);
  if (!Number.isSafeInteger(id) || id <= 0) return <p className="p-4" role="alert">Open a simulation and choose Run to assign its actors (sim_id is missing or not an id).</p>;
  return <Loaded id={id} params={params} setParams={setParams} />;
}

function Loaded({ id, params, setParams }: PaneProps & { id: number }) {
  const q = useSimulation({ id });
  return <Assignment p={q.data} error={q.error} params={params} setParams={setParams} />;
}
