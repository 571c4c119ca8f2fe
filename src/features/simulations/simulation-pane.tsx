import { SIMULATION_VID_PATTERN } from '@/api/contracts/simulations';
import { commands } from '@/commands/registry';
import { CommandToolbar } from '@/commands/command-menu';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { ErrorNote, SimulationView, useSimulation } from './simulation-view';

const run = (id: string, args: Record<string, unknown>) => commands.execute(id, args, 'button').catch(() => undefined);

/** The buttons of the simulation commands, for the one shown. */
function SimulationButtons({ id }: { id: number }) {
  const canRun = commands.context().permissions.has('jobs.run');
  return (
    <div className="flex flex-wrap gap-2">
      <Button onClick={() => void run('simulations.preview', { id })}>Preview</Button>
      {canRun && <Button onClick={() => void run('simulations.run', { id })}>Run All Actions</Button>}
      <Button onClick={() => void run('simulations.viewRuns', { id })}>View Runs</Button>
      <Button onClick={() => void run('simulations.copyVid', { id })}>Copy VID</Button>
    </div>
  );
}

/** A simulation's detail by VID, with its command buttons (the list's right side and the one-simulation pane). */
export function SimulationDetail({ vid }: { vid: string }) {
  const q = useSimulation({ vid });
  if (q.isPending) return <p className="p-4 text-muted" role="status">Loading Details</p>;
  if (q.error) return <div className="p-4"><ErrorNote error={q.error} /></div>;
  return (
    <div className="flex flex-col gap-3 px-4 py-3">
      <CommandToolbar menu="toolbar/simulation" label="Simulation header" args={{ id: q.data.id, vid: q.data.vid, name: q.data.name, simulation_type: q.data.simulation_type }} />
      <SimulationButtons id={q.data.id} />
      <SimulationView p={q.data} />
    </div>
  );
}

/** One simulation (/simulation/{vid}?sim_type=sequence|eval). */
export function SimulationPane({ params }: PaneProps) {
  const vid = params.vid ?? '';
  if (!SIMULATION_VID_PATTERN.test(vid)) return <p className="p-4" role="alert">Not a valid simulation VID: {vid}</p>;
  return (
    <div className="h-full overflow-auto" data-testid="simulation">
      <SimulationDetail vid={vid} />
    </div>
  );
}
