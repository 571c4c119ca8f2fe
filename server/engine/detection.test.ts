import { describe, expect, it } from 'vitest';
import { normalizeEvent, severityOf } from './detection';

describe('security event severity (webhook and Suricata EVE)', () => {
  it('maps Suricata\'s numeric severity (1 most severe) and severity names; nothing else', () => {
    expect([1, 2, 3, 4, '1', '2'].map(severityOf)).toEqual(['high', 'medium', 'low', 'low', 'high', 'medium']);
    expect(['critical', 'HIGH', ' medium ', 'low', 'info', 'warning'].map(severityOf)).toEqual(['critical', 'high', 'medium', 'low', 'low', 'medium']);
    expect([0, -1, 1.5, '', 'severe', null, undefined, {}].map(severityOf)).toEqual([null, null, null, null, null, null, null, null]);
  });

  it('an EVE alert keeps its severity and is a detected event, not a suspicious one, whatever its severity', () => {
    const eve = (severity: number) => normalizeEvent({ event_type: 'alert', src_ip: '10.0.0.1', dest_ip: '10.0.0.2', alert: { signature: 'ET SCAN', severity } });
    expect(eve(1)).toMatchObject({ alert: true, severity: 'high', suspicious: false, description: 'ET SCAN' });
    expect(eve(3)).toMatchObject({ alert: true, severity: 'low', suspicious: false });
  });

  it('a generic event gives its severity by name and is suspicious only when it says so', () => {
    expect(normalizeEvent({ description: 'Telnet seen', severity: 'critical', alert: true })).toMatchObject({ severity: 'critical', alert: true, suspicious: false });
    expect(normalizeEvent({ description: 'maybe related', suspicious: true })).toMatchObject({ severity: null, suspicious: true, alert: false });
  });
});
