import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { labLayout } from './layout';
import { DEFAULT_POLICY } from './lab';
import { firewallScript, logGroupOf, parseExpectations, ulogdConfig } from './policy';
import { LAB_ACTIONS, LAB_STEPS } from '../seed/lab-evaluation';

const policy = fs.readFileSync(DEFAULT_POLICY, 'utf8');

describe('lab policy file', () => {
  it('states an outcome for every Action of the lab evaluation, and every outcome combination occurs', () => {
    const expected = parseExpectations(policy);
    expect(expected.map((e) => e.vid).sort()).toEqual(LAB_ACTIONS.map((a) => a.vid).sort());
    const combos = new Set(expected.map((e) => `${e.blocked}/${e.detected}/${e.alerted}`));
    // prevented silently, prevented+detected, prevented+alerted, detected only, alerted only, missed
    for (const c of ['true/false/false', 'true/true/false', 'true/true/true', 'false/true/false', 'false/true/true', 'false/false/false']) expect(combos).toContain(c);
  });

  it('says which zone each Action runs to, as the evaluation\'s steps do; the dmz rules have Actions', () => {
    const expected = parseExpectations(policy);
    expect(Object.fromEntries(expected.map((e) => [e.vid, e.to]))).toEqual(Object.fromEntries(LAB_ACTIONS.map((a) => [a.vid, a.zone])));
    expect(LAB_STEPS.map((s) => s.zone)).toEqual(['server', 'dmz']);
    // The dmz's rule (only web and DNS) and the web admin rule's dmz side, each met by an Action to the dmz.
    const dmz = LAB_ACTIONS.filter((a) => a.zone === 'dmz');
    expect(dmz.map((a) => `${a.comm}/${a.port}`).sort()).toEqual(['tcp/22', 'tcp/80', 'tcp/9090', 'udp/53']);
    expect(parseExpectations('# expect A1 to=dmz blocked=no detected=yes alerted=no note')).toEqual([{ vid: 'A1', to: 'dmz', blocked: false, detected: true, alerted: false, note: 'note' }]);
    expect(parseExpectations('# expect A2 blocked=yes detected=no alerted=no')[0]!.to).toBe('server');
  });

  it('reads the one NFLOG group the rules log to; refuses two', () => {
    expect(logGroupOf(policy)).toBe(7);
    expect(logGroupOf('chain c {\n tcp dport 1 log group 3 prefix "x" drop\n # log group 9 in a comment\n}')).toBe(3);
    expect(logGroupOf('tcp dport 1 drop')).toBeNull();
    expect(() => logGroupOf('tcp dport 1 log group 3 drop\ntcp dport 2 log group 4 drop')).toThrow(/groups 3, 4/);
  });

  it('the firewall script defines the lab networks, clears the namespace ruleset, includes the policy; ulogd writes JSON to the events file', () => {
    const layout = labLayout('vt', '10.88', '/run/x');
    expect(firewallScript(layout, '/repo/lab/policy.nft').split('\n')).toEqual([
      '# Written by npm run lab for vt; loaded in namespace vt-fw only.',
      'define user_net = 10.88.1.0/24',
      'define server_net = 10.88.2.0/24',
      'define dmz_net = 10.88.3.0/24',
      'define resolver = 10.88.3.10',
      'flush ruleset',
      'include "/repo/lab/policy.nft"',
      '',
    ]);
    const conf = ulogdConfig(layout, 7, '/plugins');
    expect(conf).toContain('stack=log1:NFLOG,base1:BASE,ifi1:IFINDEX,ip2str1:IP2STR,json1:JSON');
    expect(conf).toContain('[log1]\ngroup=7');
    expect(conf).toContain('file="/run/x/vt/ulogd.json"');
    expect(conf).toContain('plugin="/plugins/ulogd_output_JSON.so"');
  });
});
