import { commands } from '@/commands/registry';
import { ActionMenu } from '@/ui/action-menu';

const add = (sim_type: 'sequence' | 'eval') => void commands.execute('actions.addAll', { sim_type }, 'button').catch(() => undefined);

/** The queue menu (JOB-022): only for users who may edit simulations (JOB-079). */
export function QueueMenu() {
  if (!commands.context().permissions.has('simulations.edit')) return null;
  return (
    <div className="flex justify-end border-b border-line px-2 py-1">
      <ActionMenu
        label="Queue"
        button={<span>Queue ▾</span>}
        entries={[
          { label: 'Add all', onSelect: () => add('sequence') },
          { label: 'Add all as Evaluation', onSelect: () => add('eval') },
        ]}
      />
    </div>
  );
}
