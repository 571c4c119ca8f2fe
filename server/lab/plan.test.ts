import { describe, expect, it } from 'vitest';
import { labLayout, namespacesOf } from './layout';
import { buildNetworkSteps, isHealthy, planDown, planUp, PROCESS_NAMES, type Observed } from './plan';

const layout = labLayout('vt', '10.88', '/run/x');
const DIRECTOR = 'http://127.0.0.1:3000';
const nothing: Observed = { namespaces: ['other-ns'], processes: {}, pidsInNamespaces: {}, stateDirExists: false, director: null };
const healthy: Observed = {
  namespaces: ['other-ns', ...namespacesOf(layout)],
  processes: Object.fromEntries(PROCESS_NAMES.map((p, i) => [p, { pid: 100 + i, alive: true }])),
  pidsInNamespaces: { 'vt-fw': [100], 'vt-user': [102], 'vt-server': [103], 'vt-dmz': [104] },
  stateDirExists: true,
  director: DIRECTOR,
};

describe('lab layout', () => {
  it('names namespaces by prefix, gives each zone its own /24 in the lab /16, firewall .1 and actor .10', () => {
    expect(namespacesOf(layout)).toEqual(['vt-fw', 'vt-user', 'vt-server', 'vt-dmz']);
    expect(layout.zones.map((z) => [z.name, z.cidr, z.gateway, z.address, z.fwIf])).toEqual([
      ['user', '10.88.1.0/24', '10.88.1.1', '10.88.1.10', 'z-user'],
      ['server', '10.88.2.0/24', '10.88.2.1', '10.88.2.10', 'z-server'],
      ['dmz', '10.88.3.0/24', '10.88.3.1', '10.88.3.10', 'z-dmz'],
    ]);
    expect(layout.eventsPath).toBe('/run/x/vt/ulogd.json');
    expect(() => labLayout('vt', '192.168')).toThrow(/private 10.x/);
  });

  it('veth pairs are created inside the namespaces (nothing in the host namespace) and zones route only the lab /16', () => {
    const steps = buildNetworkSteps(layout).map((s) => (s.kind === 'ip' ? s.args.join(' ') : s.kind));
    expect(steps).toContain('-n vt-fw link add z-user type veth peer name eth0 netns vt-user');
    expect(steps).toContain('-n vt-server route add 10.88.0.0/16 via 10.88.2.1');
    expect(steps.filter((s) => s.includes('link add')).every((s) => s.startsWith('-n vt-fw '))).toBe(true);
    expect(steps.some((s) => s.includes('default'))).toBe(false);
    expect(steps.indexOf('netns add vt-user')).toBeLessThan(steps.indexOf('-n vt-fw link add z-user type veth peer name eth0 netns vt-user'));
  });
});

describe('lab up and down plans', () => {
  it('up on a clean machine builds without cleaning', () => {
    expect(planUp(layout, nothing, DIRECTOR)).toEqual({ kind: 'build', cleanup: [] });
  });

  it('up on a healthy lab only reloads the policy (idempotent); for another director it rebuilds', () => {
    expect(isHealthy(layout, healthy, DIRECTOR)).toBe(true);
    expect(planUp(layout, healthy, DIRECTOR)).toEqual({ kind: 'reload-policy' });
    expect(planUp(layout, healthy, 'http://127.0.0.1:4000').kind).toBe('build');
  });

  it('up after a crash (an actor died, a namespace is missing) cleans what is left, then builds', () => {
    const crashed: Observed = {
      ...healthy,
      namespaces: healthy.namespaces.filter((n) => n !== 'vt-dmz'),
      processes: { ...healthy.processes, 'actor-user': { pid: 102, alive: false } },
      pidsInNamespaces: { 'vt-fw': [100], 'vt-server': [103, 555] },
    };
    const plan = planUp(layout, crashed, DIRECTOR);
    if (plan.kind !== 'build') throw new Error('expected a rebuild');
    expect(plan.cleanup).toEqual([
      { kind: 'kill', pid: 100, why: 'ulogd' },
      { kind: 'kill', pid: 101, why: 'bridge' },
      { kind: 'kill', pid: 103, why: 'actor-server' },
      { kind: 'kill', pid: 104, why: 'actor-dmz' },
      { kind: 'kill', pid: 555, why: 'process in vt-server' },
      { kind: 'ip', args: ['netns', 'del', 'vt-fw'] },
      { kind: 'ip', args: ['netns', 'del', 'vt-user'] },
      { kind: 'ip', args: ['netns', 'del', 'vt-server'] },
      { kind: 'removeState' },
    ]);
  });

  it('down removes the director records, every process, every namespace of the prefix and the state, and nothing else', () => {
    const steps = planDown(layout, healthy);
    expect(steps[0]).toEqual({ kind: 'forgetDirector' });
    expect(steps.filter((s) => s.kind === 'kill').map((s) => (s.kind === 'kill' ? s.pid : 0))).toEqual([100, 101, 102, 103, 104]);
    expect(steps.filter((s) => s.kind === 'ip')).toEqual(namespacesOf(layout).map((ns) => ({ kind: 'ip', args: ['netns', 'del', ns] })));
    expect(steps.at(-1)).toEqual({ kind: 'removeState' });
    // Down twice: the second finds nothing on the machine to do.
    expect(planDown(layout, nothing)).toEqual([{ kind: 'forgetDirector' }]);
  });
});
