import { describe, expect, it } from 'vitest';
import { runAsState, validRunAsActor, versionAtLeast, type RunAsActor, type RunAsInput } from './run-as-selection';

const actor = (over: Partial<RunAsActor> = {}): RunAsActor => ({ id: 1, os_base: 'windows', node_version: '4.10.0', node_type: 'endpoint', sandbox_node_id: null, user_tags: [], ...over });
const input = (over: Partial<RunAsInput> = {}): RunAsInput => ({ actionTypes: ['dns'], protectedAction: false, mode: 'actor', selected: [actor()], profile: null, required: false, default: false, ...over });

describe('run-as selection rules', () => {
  it('MON-168 MON-103 a run-as actor is Windows, version 4.10.0 or later, endpoint or protected; in tag mode it carries a selected tag', () => {
    expect(validRunAsActor(actor())).toBe(true);
    expect(validRunAsActor(actor({ node_type: 'protected', node_version: '4.12.1' }))).toBe(true);
    expect(validRunAsActor(actor({ os_base: 'linux' }))).toBe(false);
    expect(validRunAsActor(actor({ node_version: '4.9.9' }))).toBe(false);
    expect(validRunAsActor(actor({ node_version: '' }))).toBe(false);
    expect(validRunAsActor(actor({ node_type: 'network' }))).toBe(false);
    expect(validRunAsActor(actor({ user_tags: ['HQ'] }), 'tag', ['PCI'])).toBe(false);
    expect(validRunAsActor(actor({ user_tags: ['HQ', 'PCI'] }), 'tag', ['PCI'])).toBe(true);
    expect(versionAtLeast('4.10.0', '4.10.0')).toBe(true);
    expect(versionAtLeast('10.0.0', '4.10.0')).toBe(true);
    expect(versionAtLeast('4.9.10', '4.10.0')).toBe(false);
  });

  it('MON-104 no run-as for cloud and email, always for host_cli, otherwise valid actors plus a selection', () => {
    expect(runAsState(input({ actionTypes: ['cloud'] })).supported).toBe(false);
    expect(runAsState(input({ actionTypes: ['email'] })).supported).toBe(false);
    expect(runAsState(input({ actionTypes: ['host_cli'], selected: [] })).supported).toBe(true);
    expect(runAsState(input({ actionTypes: ['host_cli'], selected: [actor({ os_base: 'linux' })] })).supported).toBe(true);
    expect(runAsState(input({ actionTypes: ['dns'] })).supported).toBe(true);
    expect(runAsState(input({ actionTypes: ['dns'], selected: [] })).supported).toBe(false);
    expect(runAsState(input({ actionTypes: ['dns'], selected: [actor({ os_base: 'linux' })] })).supported).toBe(false);
    // Tag mode needs at least one selected tag, carried by a valid actor.
    expect(runAsState(input({ mode: 'tag', selected: [actor({ user_tags: ['HQ'] })], selectedTags: [] })).supported).toBe(false);
    expect(runAsState(input({ mode: 'tag', selected: [actor({ user_tags: ['HQ'] })], selectedTags: ['HQ'] })).supported).toBe(true);
  });

  it('MON-105 the Interactive Session checkbox is hidden for host_cli', () => {
    const s = runAsState(input({ actionTypes: ['host_cli'] }));
    expect(s.sessionHidden).toBe(true);
    expect(s.sessionChecked).toBe(false);
    expect(runAsState(input({ actionTypes: ['host_cli', 'dns'] })).sessionHidden).toBe(false);
  });

  it('MON-106 the session is disabled without a selected Windows actor for the listed types; for host_cli with a profile and no sandbox', () => {
    for (const t of ['captive_ioc_pcap', 'captive_ioc_url', 'dns', 'file', 'file_transfer', 'hex', 'pcap', 'port_scan', 'socket', 'website']) {
      expect(runAsState(input({ actionTypes: [t], selected: [actor({ os_base: 'linux' })] })).sessionDisabled, t).toBe(true);
      expect(runAsState(input({ actionTypes: [t] })).sessionDisabled, t).toBe(false);
    }
    // A type outside the list keeps the session available on a Linux actor.
    expect(runAsState(input({ actionTypes: ['sleep'], selected: [actor({ os_base: 'linux' })] })).sessionDisabled).toBe(false);
    const hostCli = (profile: number | null, sandbox: number | null) => runAsState(input({ actionTypes: ['host_cli', 'sleep'], profile, selected: [actor({ sandbox_node_id: sandbox })] }));
    expect(hostCli(7, null).sessionDisabled).toBe(true);
    expect(hostCli(7, 9).sessionDisabled).toBe(false);
    expect(hostCli(null, null).sessionDisabled).toBe(false);
  });

  it('MON-064 choosing a profile (empty means Run as System) recomputes whether the session is disabled and checked', () => {
    const base = input({ actionTypes: ['host_cli', 'sleep'], selected: [actor()], userTick: { actor: true } });
    const system = runAsState({ ...base, profile: null });
    expect([system.sessionDisabled, system.sessionChecked]).toEqual([false, true]);
    const withProfile = runAsState({ ...base, profile: 3 });
    expect([withProfile.sessionDisabled, withProfile.sessionChecked]).toEqual([true, false]);
  });

  it('MON-065 the session is forced checked and disabled when the action is protected and every selected actor is a valid sandboxed actor', () => {
    const forced = runAsState(input({ protectedAction: true, selected: [actor({ sandbox_node_id: 4 }), actor({ id: 2, sandbox_node_id: 5 })], userTick: { actor: false } }));
    expect(forced).toMatchObject({ sessionForced: true, sessionDisabled: true, sessionChecked: true });
    // One selected actor without a sandbox (or not valid): not forced.
    expect(runAsState(input({ protectedAction: true, selected: [actor({ sandbox_node_id: 4 }), actor({ id: 2 })] })).sessionForced).toBe(false);
    expect(runAsState(input({ protectedAction: true, selected: [actor({ sandbox_node_id: 4, node_version: '4.0.0' })] })).sessionForced).toBe(false);
    expect(runAsState(input({ protectedAction: false, selected: [actor({ sandbox_node_id: 4 })] })).sessionForced).toBe(false);
  });

  it('MON-066 the user tick is remembered per mode', () => {
    const ticks = { actor: true, zone: false };
    expect(runAsState(input({ mode: 'actor', userTick: ticks })).sessionChecked).toBe(true);
    expect(runAsState(input({ mode: 'zone', userTick: ticks })).sessionChecked).toBe(false);
    expect(runAsState(input({ mode: 'tag', selectedTags: [], userTick: ticks, default: true })).sessionChecked).toBe(true);
  });

  it('MON-067 the initial state comes from the required and default flags', () => {
    expect(runAsState(input({ required: false, default: false })).sessionChecked).toBe(false);
    expect(runAsState(input({ required: false, default: true })).sessionChecked).toBe(true);
    const required = runAsState(input({ required: true, default: false, userTick: { actor: false } }));
    expect([required.sessionChecked, required.sessionDisabled]).toEqual([true, true]);
  });
});
