import type { AnyCommand } from '@/commands/types';
import { SPEC_PANES } from '@/panes/spec-routes';
import { paneOpenCommands, workbenchCommands } from '@/panes/workbench-commands';
import { FEATURE_COMMANDS } from './feature-commands';

/**
 * Every command, for runners without a browser (the terminal script runner): the workbench's own, one
 * per pane of the table, and every feature's from FEATURE_COMMANDS (the same table the workbench uses).
 */
export function headlessCommands(): AnyCommand[] {
  return [...workbenchCommands(), ...paneOpenCommands(SPEC_PANES), ...Object.values(FEATURE_COMMANDS).flat()];
}
