import { MAX_RUN_STEPS } from '@/api/contracts/engine';
import type { PaneKind } from './types';

/**
 * THE table of panes: every route the specifications name (and the few panes Vigil adds), with
 * title, routes, query and identity params, permission and description. A feature that builds one
 * supplies only `{ id, component }` (`panes` of its FeatureModule); until then the workbench opens a
 * pane that says it is not built yet. Titles use the specs' words.
 */
const STEP_ACTOR_PARAMS = Array.from({ length: MAX_RUN_STEPS }, (_, i) => [`attack_node_id_${i + 1}`, `target_node_id_${i + 1}`]).flat();

export const SPEC_PANES: PaneKind[] = [
  { id: 'jobs', title: 'Jobs', routes: ['/jobs'], query: ['vid', 'filter', 'rules', 'page_filter', 'job'], viewState: ['filter', 'rules', 'page_filter', 'job'], identity: ['vid'], description: 'Job results: live list, steps and actions' },
  { id: 'job', title: 'Job {id}', routes: ['/jobs/:id'], entity: 'job', description: 'One job: steps, actions and results', listed: false },
  { id: 'job-summary-report', title: 'Job Summary Report', routes: ['/reports/summary'], query: ['job_ids'], identity: ['job_ids'], description: 'Summary report of one or more jobs', openedBy: 'jobs.summaryReport' },
  { id: 'suspect-events', title: 'Suspicious Events', routes: ['/suspect_events'], query: ['job_action_id'], identity: ['job_action_id'], listed: false },
  { id: 'actions', title: 'Actions', routes: ['/manage_sims/actions', '/manage_sims/action/:vid'], query: ['q', 'tags', 'tag_mode'], viewState: ['q', 'tags', 'tag_mode'], identity: [], description: 'The Action library' },
  { id: 'actions-queue', title: 'Queue', routes: ['/manage_sims/actions/queue'], description: 'Simulations queued from the library' },
  {
    id: 'action-new',
    title: 'Add Action',
    routes: ['/manage_sims/actions/unified_action/new'],
    query: ['action_type', 'domain', 'dns_name', 'dns_desc'],
    identity: [],
    permission: 'create_action_permission',
    description: 'Create an Action',
  },
  { id: 'action-edit', title: 'Edit Action {id}', routes: ['/manage_sims/actions/:id/edit', '/manage_sims/actions/cloud_action/:id/edit'], listed: false, openedBy: 'actions.edit' },
  { id: 'action-clone', title: 'Clone Action {id}', routes: ['/manage_sims/actions/:id/clone'], permission: 'create_action_permission', listed: false, openedBy: 'actions.clone' },
  { id: 'pcap-inspect', title: 'Packet View {id}', routes: ['/manage_sims/pcaps/inspect/:id'], query: ['packet'], identity: ['id'], listed: false, openedBy: 'pcap.openPacketView' },
  { id: 'simulations', title: 'Simulations', routes: ['/simulations'], query: ['sim_type', 'vid'], identity: ['sim_type'], description: 'Sequences and Evaluations' },
  { id: 'simulation', title: 'Simulation {vid}', routes: ['/simulation/:vid'], entity: 'simulation', query: ['sim_type'], listed: false },
  // The simulation editor's routes are not shown in the spec (issue 19): ours.
  { id: 'simulation-edit', title: 'Edit {vid}', routes: ['/simulation/:vid/edit'], entity: 'simulation', query: ['sim_type'], identity: ['vid'], permission: 'simulations.edit', listed: false },
  { id: 'simulation-clone', title: 'Clone and Edit {vid}', routes: ['/simulation/:vid/clone'], entity: 'simulation', query: ['sim_type'], identity: ['vid'], permission: 'simulations.clone_edit', listed: false },
  // JOB-027: attack_node_id_{n} and target_node_id_{n} per step (n up to MAX_RUN_STEPS) keep the assignment in the URL.
  { id: 'select-nodes', title: 'Assign Actors', routes: ['/simulations/select_nodes'], query: ['sim_id', ...STEP_ACTOR_PARAMS], identity: ['sim_id'], permission: 'simulations.select_nodes', listed: false },
  { id: 'network-map', title: 'Network Map', routes: ['/topology'], query: ['chart', 'refresh'], identity: [], description: 'Zones, actors and devices' },
  { id: 'node-edit', title: 'Actor {id}', routes: ['/topology/nodes/:id/edit'], entity: 'actor', listed: false },
  { id: 'monitor-stats', title: 'Monitor Stats', routes: ['/monitor'], query: ['refresh'], identity: [], description: 'Active security monitors and alerts on the map' },
  { id: 'monitors', title: 'Monitors', routes: ['/monitors'], query: ['id'], identity: [], description: 'Scheduled repeating checks' },
  // The monitor editor's routes are not shown in the spec (MON-126): ours.
  {
    id: 'monitor-edit',
    title: 'Monitor {id}',
    routes: ['/monitors/:id/edit', '/monitors/new'],
    entity: 'monitor',
    query: ['simulation_id', 'action_ids'],
    identity: ['id', 'simulation_id', 'action_ids'],
    permission: 'monitors.edit',
    listed: false,
  },
  { id: 'actors', title: 'Actors', routes: ['/actors'], description: 'Actors, bulk tokens and installers' },
  // The integrations menu's page (JOB-029); the spec names the menu and its calls, not a route: ours.
  { id: 'integrations', title: 'Integrations', routes: ['/integrations'], description: 'Security tools the director takes events from' },
  { id: 'action-user-profiles', title: 'Run-as User Profiles', routes: ['/action_user_profiles'], description: 'Profiles actions run as on actors' },
  // Dashboards are ours (issue 18): the spec names the Panel Library and charts but not their pages.
  { id: 'dashboards', title: 'Dashboards', routes: ['/dashboards'], description: 'Dashboards of result charts' },
  { id: 'dashboard', title: 'Dashboard {id}', routes: ['/dashboards/:id'], listed: false, openedBy: 'reports.openDashboard' },
  { id: 'mitre', title: 'MITRE ATT&CK', routes: ['/analyze/mitre'], query: ['active_tactics', 'start', 'end', 'days', 'last', 'wd'], identity: [], description: 'Results by tactic' },
  { id: 'operational-status', title: 'Operational Status', routes: ['/operational_status'], query: ['tabIndex'], identity: [], description: 'Director and content-service status' },
  { id: 'help', title: 'Help: {file}', routes: ['/help/:file'], listed: false },
  { id: 'scripts', title: 'Scripts', routes: ['/scripts'], query: ['id', 'run'], identity: [], description: 'Scripted command sequences' },
  { id: 'admin-users', title: 'Users', routes: ['/admin/users'], permission: 'users.manage', description: 'Add users, set roles, reset passwords' },
  { id: 'host-cli-help', title: 'Host CLI Help', routes: ['/manage_sims/actions/host_cli_help_info'], identity: [], description: 'The host_cli command syntax' },
  { id: 'host-cli-python-help', title: 'Host CLI Python Help', routes: ['/manage_sims/actions/host_cli_python_help_info'], identity: [], description: 'Python host_cli scripts' },
  { id: 'cloud-python-help', title: 'Cloud Python Help', routes: ['/manage_sims/actions/cloud_python_help_info'], identity: [], description: 'Cloud Action scripts' },
  { id: 'action-preview', title: 'Action Details {id}', routes: ['/manage_sims/actions/:id/preview'], entity: 'action', description: 'Preview of one Action', listed: false },
];

/** Paths people type or bookmark that live elsewhere: opening one replaces it in the address bar with its target. */
export const ROUTE_REDIRECTS: Readonly<Record<string, string>> = {
  '/users': '/admin/users',
};
