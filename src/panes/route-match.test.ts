import { describe, expect, it } from 'vitest';
import { PaneRegistry } from './registry';
import { paneKey, paneUrl } from './route-match';
import { SPEC_PANES } from './spec-routes';

const registry = new PaneRegistry(SPEC_PANES);
const match = (url: string) => registry.routes().match(url);

describe('spec routes as panes', () => {
  it.each([
    ['/jobs', 'jobs', {}],
    ['/jobs?vid=A100-123', 'jobs', { vid: 'A100-123' }],
    ['/jobs/812', 'job', { id: '812' }],
    ['/reports/summary?job_ids[]=1&job_ids[]=2', 'job-summary-report', { job_ids: '1,2' }],
    ['/suspect_events?job_action_id=9', 'suspect-events', { job_action_id: '9' }],
    ['/manage_sims/actions', 'actions', {}],
    ['/manage_sims/action/A100-123', 'actions', { vid: 'A100-123' }],
    ['/manage_sims/actions/queue', 'actions-queue', {}],
    ['/manage_sims/actions/unified_action/new?action_type=dns&domain=evil.example', 'action-new', { action_type: 'dns', domain: 'evil.example' }],
    ['/manage_sims/actions/42/edit', 'action-edit', { id: '42' }],
    ['/manage_sims/actions/cloud_action/42/edit', 'action-edit', { id: '42', cloud: 'true' }],
    ['/manage_sims/actions/42/clone', 'action-clone', { id: '42' }],
    ['/manage_sims/pcaps/inspect/3', 'pcap-inspect', { id: '3' }],
    ['/simulations?sim_type=sequence', 'simulations', { sim_type: 'sequence' }],
    ['/simulation/S100-1?sim_type=eval', 'simulation', { vid: 'S100-1', sim_type: 'eval' }],
    ['/simulations/select_nodes?sim_id=5&attack_node_id_1=2', 'select-nodes', { sim_id: '5', attack_node_id_1: '2' }],
    ['/topology/nodes/5/edit', 'node-edit', { id: '5' }],
    ['/action_user_profiles', 'action-user-profiles', {}],
    ['/help/host_cli.md', 'help', { file: 'host_cli.md' }],
    ['/operational_status?tabIndex=3', 'operational-status', { tabIndex: '3' }],
    ['/analyze/mitre/?active_tactics[]=TA0001', 'mitre', { active_tactics: 'TA0001' }],
  ])('%s opens the %s pane', (url, kind, params) => {
    expect(match(url)).toEqual({ kind, params });
  });

  it('gives no pane to an unknown path', () => {
    expect(match('/nowhere/at/all')).toBeNull();
  });

  it('builds the URL back from a pane and keys panes by their identifying params', () => {
    const job = registry.get('job')!;
    expect(paneUrl(job, { id: '812' })).toBe('/jobs/812');
    expect(paneKey(job, { id: '812' })).toBe('job:812');
    const actions = registry.get('actions')!;
    expect(paneKey(actions, { vid: 'A1' })).toBe('actions');
    expect(paneUrl(actions, { vid: 'A100-123' })).toBe('/manage_sims/action/A100-123');
    expect(paneUrl(actions, {})).toBe('/manage_sims/actions');
    const edit = registry.get('action-edit')!;
    expect(paneUrl(edit, { id: '42', cloud: 'true' })).toBe('/manage_sims/actions/cloud_action/42/edit');
    const sims = registry.get('simulations')!;
    expect(paneUrl(sims, { sim_type: 'eval' })).toBe('/simulations?sim_type=eval');
    expect(paneKey(sims, { sim_type: 'eval' })).toBe('simulations:eval');
  });

  it('lets a feature build a spec pane, and refuses two features building the same one', () => {
    const r = new PaneRegistry(SPEC_PANES);
    const Component = () => null;
    r.add({ id: 'jobs', title: 'Jobs', routes: ['/jobs'], component: Component });
    expect(r.get('jobs')?.component).toBe(Component);
    expect(r.get('jobs')?.query).toEqual(['vid', 'filter', 'rules', 'page_filter', 'job']);
    expect(() => r.add({ id: 'jobs', title: 'Jobs', routes: ['/jobs'], component: Component })).toThrow(/two features/);
  });
});
