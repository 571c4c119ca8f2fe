import type { FeatureModule } from '@/panes/feature-module';
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
import { monitorsFeature } from '@/features/monitors';

/** Every feature of the workbench; the only place that knows them all. */
export const FEATURES: readonly FeatureModule[] = [authFeature, notificationsFeature, adminUsersFeature, actionFormFeature, scriptsFeature, actionLibraryFeature, runFeature, jobsFeature, pcapInspectFeature, filtersFeature, actorsFeature, networkMapFeature, simulationsFeature, monitorsFeature];
