import type { FeatureModule } from '@/panes/feature-module';
import { FEATURE_COMMANDS } from './feature-commands';
import { authFeature } from '@/features/auth';
import { adminUsersFeature } from '@/features/admin-users';
import { notificationsFeature } from '@/features/notifications';
import { actionFormFeature } from '@/features/action-form';
import { scriptsFeature } from '@/features/scripts';
import { actionLibraryFeature } from '@/features/action-library';
import { runFeature } from '@/features/run';
import { jobsFeature } from '@/features/jobs';
import { pcapInspectFeature } from '@/features/pcap-inspect';
import { filtersFeature } from '@/features/filters';
import { actorsFeature } from '@/features/actors';
import { networkMapFeature } from '@/features/network-map';
import { simulationsFeature } from '@/features/simulations';
import { integrationsFeature } from '@/features/integrations';
import { reportsFeature } from '@/features/reports';
import { monitorsFeature } from '@/features/monitors';
import { runAsProfilesFeature } from '@/features/run-as-profiles';
import { actorEditFeature } from '@/features/actor-edit';
import { operationalStatusFeature } from '@/features/operational-status';
import { helpFeature } from '@/features/help';
import { tagsFeature } from '@/features/tags';

const MODULES: readonly FeatureModule[] = [authFeature, notificationsFeature, adminUsersFeature, actionFormFeature, scriptsFeature, actionLibraryFeature, runFeature, jobsFeature, pcapInspectFeature, filtersFeature, actorsFeature, networkMapFeature, simulationsFeature, integrationsFeature, reportsFeature, monitorsFeature, runAsProfilesFeature, actorEditFeature, operationalStatusFeature, helpFeature, tagsFeature];

/** Every feature of the workbench (panes, globals), each with its commands from the one table FEATURE_COMMANDS. */
export const FEATURES: readonly FeatureModule[] = MODULES.map((f) => ({ ...f, commands: [...(FEATURE_COMMANDS[f.id] ?? [])] }));
