import type { AnyCommand } from '@/commands/types';
import { actorsCommands } from '@/features/actors/commands';
import { adminUsersCommands } from '@/features/admin-users/commands';
import { authCommands } from '@/features/auth/commands';
import { actionFormCommands } from '@/features/action-form/commands';
import { libraryCommands } from '@/features/action-library/commands';
import { draftCommands } from '@/features/action-library/draft-commands';
import { filterCommands } from '@/features/filters/commands';
import { networkMapCommands } from '@/features/network-map/commands';
import { jobsCommands } from '@/features/jobs/commands';
import { pcapCommands } from '@/features/pcap-inspect/commands';
import { runCommands } from '@/features/run/commands';
import { scriptCommands } from '@/features/scripts/commands';
import { scriptPaneCommands } from '@/features/scripts/pane-commands';
import { simulationCommands } from '@/features/simulations/commands';
import { monitorCommands } from '@/features/monitors/commands';
import { SPEC_PANES } from '@/panes/spec-routes';
import { paneOpenCommands, workbenchCommands } from '@/panes/workbench-commands';

/**
 * Every command, imported from the features' command modules only (no React), for runners without a
 * browser: the terminal script runner. Keep it in step with src/app/features.ts.
 */
export function headlessCommands(): AnyCommand[] {
  return [
    ...workbenchCommands(),
    ...paneOpenCommands(SPEC_PANES),
    ...authCommands,
    ...adminUsersCommands,
    ...scriptCommands,
    ...scriptPaneCommands,
    ...actionFormCommands,
    ...libraryCommands,
    ...draftCommands,
    ...simulationCommands,
    ...monitorCommands,
    ...jobsCommands,
    ...pcapCommands,
    ...runCommands,
    ...filterCommands,
    ...actorsCommands,
    ...networkMapCommands,
  ];
}
