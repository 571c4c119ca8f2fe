import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { Modal } from '@/ui/modal';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';
import { ApiError } from '@/api/http';
import type { RunActor } from '@/api/contracts/engine';
import { commands } from '@/commands/registry';
import { getRunActors, runActorsQueryKey, runJob } from './api';
import { jobStartedNotice } from './commands';
import { runModal } from './store';

const KIND_LABEL = { action: 'Action', sequence: 'Sequence', evaluation: 'Evaluation' } as const;

function label(a: RunActor): string {
  return `${a.name} (${a.sim_address}${a.zone_name ? `, ${a.zone_name}` : ''})${a.status === 'online' ? '' : ` - ${a.status}`}`;
}

/**
 * The Run All Actions modal (spec: title 'Run All Actions', section 'Select Source and Destination
 * Actors', a lock toggle, Close and Run Now). Locked lists only online actors; unlocked lists every
 * registered actor and sends force_unlock.
 */
export function RunAllActionsModal() {
  const { target } = useSnapshot(runModal);
  const open = target !== null;
  const queryClient = useQueryClient();
  const actors = useQuery({ queryKey: runActorsQueryKey, queryFn: getRunActors, enabled: open, refetchInterval: open ? 5000 : false });
  const [source, setSource] = useState('');
  const [destination, setDestination] = useState('');
  const [locked, setLocked] = useState(true);
  const [running, setRunning] = useState(false);

  const clear = () => {
    setSource('');
    setDestination('');
    setRunning(false);
  };
  const close = () => {
    clear();
    runModal.target = null;
  };
  useEffect(() => {
    if (!open) clear();
  }, [open]);

  const choices = useMemo(() => (actors.data ?? []).filter((a) => !locked || a.status === 'online'), [actors.data, locked]);
  const destinations = choices.filter((a) => String(a.id) !== source);
  const canRun = source !== '' && destination !== '' && !running;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target || !canRun) return;
    setRunning(true);
    try {
      const job = await runJob(target.kind, target.id, { attack_node_id_1: Number(source), target_node_id_1: Number(destination), force_unlock: !locked });
      jobStartedNotice(job.job_id, job.name);
      await queryClient.invalidateQueries({ queryKey: ['jobs'] });
      close();
      commands.context().dock?.openUrl(job.url);
    } catch (err) {
      flash('alert', err instanceof ApiError ? err.message : 'Error');
      setRunning(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Run All Actions"
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Close</Button>
          <Button variant="primary" type="submit" form="run-all-form" disabled={!canRun}>
            {running ? 'Running...' : 'Run Now'}
          </Button>
        </>
      }
    >
      <form id="run-all-form" onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
        {target && (
          // What runs, by its name (the spec's title 'Run All Actions' stays the dialog's).
          <h3 className="text-base font-semibold">
            {target.name}
            <span className="ml-2 text-xs font-normal text-muted">
              {KIND_LABEL[target.kind]}
              {target.vid ? ` · ${target.vid}` : ''}
            </span>
          </h3>
        )}
        <section aria-labelledby="run-all-actors" className="flex flex-col gap-2">
          <h3 id="run-all-actors" className="text-sm font-semibold">
            Select Source and Destination Actors
          </h3>
          {actors.isLoading && <p className="text-sm text-muted">Loading actors…</p>}
          {actors.isError && <p className="text-sm text-red-400">{actors.error instanceof Error ? actors.error.message : 'Error'}</p>}
          {actors.data && choices.length === 0 && <p className="text-sm text-muted">No actors are connected. Start one with npm run actor.</p>}
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            Source Actor
            <select
              name="attack_node_id_1"
              className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink"
              value={source}
              onChange={(e) => {
                setSource(e.target.value);
                setDestination('');
              }}
            >
              <option value="">Choose the source actor</option>
              {choices.map((a) => (
                <option key={a.id} value={a.id}>
                  {label(a)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            Destination Actor
            <select
              name="target_node_id_1"
              className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink"
              value={destination}
              disabled={source === ''}
              onChange={(e) => setDestination(e.target.value)}
            >
              <option value="">Choose the destination actor</option>
              {destinations.map((a) => (
                <option key={a.id} value={a.id}>
                  {label(a)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              role="switch"
              name="lock"
              aria-label="Lock actor choices to online actors"
              checked={locked}
              onChange={(e) => {
                setLocked(e.target.checked);
                setDestination('');
              }}
            />
            {locked ? 'Locked: online actors only' : 'Unlocked: every registered actor'}
          </label>
          <input type="hidden" name="force_unlock" value={String(!locked)} />
        </section>
      </form>
    </Modal>
  );
}
