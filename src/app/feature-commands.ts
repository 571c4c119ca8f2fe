import type { AnyCommand } from '@/commands/types';
import { actorsCommands } from '@/features/actors/commands';
import { integrationsCommands } from '@/features/integrations/commands';
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
import { reportsCommands } from '@/features/reports/commands';
import { monitorCommands } from '@/features/monitors/commands';
import { runAsProfilesCommands } from '@/features/run-as-profiles/commands';
import { actorEditCommands } from '@/features/actor-edit/commands';
import { operationalStatusCommands } from '@/features/operational-status/commands';
import { helpCommands } from '@/features/help/commands';
import { tagsCommands } from '@/features/tags/commands';
import { notificationsCommands } from '@/features/notifications/commands';

/**
 * THE table of every feature's commands, by feature id, imported from React-free command modules only.
 * The workbench (src/app/features.ts) and the terminal runner (src/app/headless-commands.ts) both read
 * it, so a command added to a feature's command module reaches both without a second list.
 */
export const FEATURE_COMMANDS: Readonly<Record<string, readonly AnyCommand[]>> = {
  auth: authCommands,
  'admin-users': adminUsersCommands,
  scripts: [...scriptCommands, ...scriptPaneCommands],
  'action-form': actionFormCommands,
  'action-library': [...libraryCommands, ...draftCommands],
  run: runCommands,
  jobs: jobsCommands,
  'pcap-inspect': pcapCommands,
  filters: filterCommands,
  actors: actorsCommands,
  integrations: integrationsCommands,
  'network-map': networkMapCommands,
  simulations: simulationCommands,
  reports: reportsCommands,
  monitors: monitorCommands,
  'run-as-profiles': runAsProfilesCommands,
  'actor-edit': actorEditCommands,
  'operational-status': operationalStatusCommands,
  help: helpCommands,
  tags: tagsCommands,
  notifications: notificationsCommands,
};
