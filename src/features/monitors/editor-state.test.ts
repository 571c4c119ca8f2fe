import { describe, expect, it } from 'vitest';
import { newActionBody, BOTH_DO_NOT_MATTER_MESSAGE, todayIn, type MonitorBody } from '@/api/contracts/monitors';
import { flatSteps, summaryEntry, validateDraft, type EditorDraft } from './editor-state';
import { rangeEnd } from './definition-panel';

const group = (ids: number[]): MonitorBody['steps'][number] => ({
  name: 'G', run_between: 'node', attack_node: 1, attack_zone: null, target_node: 2, target_zone: null, from_email_profile: null, to_email_profile: null,
  scan_interfaces: [], proxy_comm: false, use_ip_addresses: false, action_user_profile: null, interactive_desktop_session: false, require_interactive: false,
  actions: ids.map(newActionBody),
});
const draft = (steps: MonitorBody['steps']): EditorDraft => ({
  id: null,
  info: { 1: { name: 'Scan', action_type: 'port_scan', vid: 'A1', require_protected: false }, 2: { name: 'DNS', action_type: 'dns', vid: 'A2', require_protected: false }, 3: { name: 'Web', action_type: 'website', vid: 'A3', require_protected: false } },
  outcomes: {},
  storedRuntime: null,
  body: {
    name: 'M', description: '', monitor_group: null, new_monitor_group: '', monitor_runtime: `${todayIn('UTC')} 23:59`, timezone: 'UTC', repeat_job_period_number: 1,
    repeat_job_period_type: 'days', repeat_week_days: '', repeat_monthly_frequency: '', repeat_day_of_the_week: '', extra_sleep: 0, detection_timeout_seconds: 30, simulation_id: null, steps,
  },
});

describe('the editor draft', () => {
  it('MON-010 one marker per action across groups, with group start and end', () => {
    const steps = flatSteps(draft([group([1, 2]), group([3])]));
    expect(steps.map((s) => [s.index, s.name, s.group, s.groupStart, s.groupEnd])).toEqual([
      [0, 'Scan', 0, true, false],
      [1, 'DNS', 0, false, true],
      [2, 'Web', 1, true, true],
    ]);
  });
  it('MON-096 the shared contract reports both "Does not matter" under the action path', () => {
    const d = draft([group([1])]);
    expect(validateDraft(d)).toEqual({});
    const g = group([1]);
    g.actions[0] = { ...newActionBody(1), expected_blocked: 'does_not_matter', expected_detected: 'does_not_matter' };
    expect(validateDraft(draft([g]))['steps[0].actions[0].expected_detected']).toEqual([BOTH_DO_NOT_MATTER_MESSAGE]);
  });
  it('MON-083 the first-run picker range ends 29 days after the chosen start', () => {
    expect(rangeEnd('2026-02-10 08:00')).toBe('2026-03-11T23:59');
  });
  it('MON-040 a summary entry holds actionId, actionName, action_type, active, hasError, id, monitor_action_id, job_action_id and events', () => {
    const g = group([1, 3]);
    g.actions[1] = { ...newActionBody(3), expected_detected: 'yes', expected_events: [{ integration_id: 4, description: 'ET SCAN', message: '' }] };
    const d = { ...draft([g]), outcomes: { '0:1': { outcome: 'pass' as const, drift: false, monitor_action_id: 71, job_action_id: 930 } } };
    const [first, second] = flatSteps(d);
    expect(summaryEntry(d, second!, 1, false)).toEqual({
      actionId: 3, actionName: 'Web', action_type: 'website', active: true, hasError: false, id: 1, monitor_action_id: 71, job_action_id: 930,
      events: [{ integration_id: 4, description: 'ET SCAN', message: '' }],
    });
    // A step never saved nor run has neither.
    expect(summaryEntry(d, first!, 1, true)).toMatchObject({ actionId: 1, actionName: 'Scan', action_type: 'port_scan', active: false, hasError: true, id: 0, monitor_action_id: null, job_action_id: null, events: [] });
  });
});
