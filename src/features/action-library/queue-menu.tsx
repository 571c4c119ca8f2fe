import { CommandMenu } from '@/commands/command-menu';

/** The queue menu (JOB-022): its items are the placements of 'Add all' (shown only to users who may edit simulations, JOB-079). */
export function QueueMenu() {
  return (
    <div className="flex justify-end border-b border-line px-2 py-1 empty:hidden">
      <CommandMenu menu="menu/action-queue" label="Queue" button={<span>Queue ▾</span>} />
    </div>
  );
}
