/**
 * nftables/ulogd JSON: one line of ulogd2's JSON output plugin (a packet an nftables rule sent to
 * NFLOG with `log group N prefix "..."`) normalized into a security event.
 *
 * The rule's prefix is the event's description and carries its meaning (lab/policy.nft):
 * `ALERT:<severity> text` marks an alert, `LOG:<severity> text` a detection that is not an alert;
 * severity is low, medium, high or critical and is the event's severity. A rule's match is a
 * detection, never merely suspicious (suspicious is for events only suspected to belong to an action),
 * so a critical alert is listed with the detected events. A prefix in neither form is a plain
 * detection without severity. The time is the kernel's (oob.time.sec/usec, UTC); ulogd's
 * own "timestamp" is local time without a zone, so it is used only when those are missing.
 */
import type { NormalEvent } from '../engine/detection';
import type { EventSeverity } from '../../src/api/contracts/jobs';

const PREFIX = /^(ALERT|LOG):(low|medium|high|critical)\s+(.+)$/i;
const PROTOCOLS: Record<number, string> = { 1: 'ICMP', 6: 'TCP', 17: 'UDP', 58: 'IPv6-ICMP', 132: 'SCTP' };

export interface RulePrefix {
  alert: boolean;
  severity: EventSeverity | null;
  text: string;
}

/** The meaning of a rule's log prefix. */
export function parsePrefix(prefix: string): RulePrefix {
  const m = PREFIX.exec(prefix.trim());
  if (!m) return { alert: false, severity: null, text: prefix.trim() };
  return { alert: m[1]!.toUpperCase() === 'ALERT', severity: m[2]!.toLowerCase() as EventSeverity, text: m[3]!.trim() };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);
const port = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 65536 ? v : null);

function timeOf(o: Record<string, unknown>, now: Date): string {
  const sec = o['oob.time.sec'];
  const usec = o['oob.time.usec'];
  if (typeof sec === 'number' && Number.isFinite(sec)) return new Date(sec * 1000 + (typeof usec === 'number' ? Math.floor(usec / 1000) : 0)).toISOString();
  const ts = str(o.timestamp);
  const t = ts ? new Date(ts) : now;
  return (Number.isNaN(t.getTime()) ? now : t).toISOString();
}

/** Normalizes one parsed ulogd2 JSON line; null when it is not a logged packet (no prefix and no addresses). */
export function normalizeUlogd(line: unknown, now = new Date()): NormalEvent | null {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return null;
  const o = line as Record<string, unknown>;
  const prefix = typeof o['oob.prefix'] === 'string' ? o['oob.prefix'] : '';
  const src = str(o.src_ip);
  const dest = str(o.dest_ip);
  if (!prefix.trim() && !src && !dest) return null;
  const rule = parsePrefix(prefix);
  const protoNumber = o['ip.protocol'];
  const proto = typeof protoNumber === 'number' ? (PROTOCOLS[protoNumber] ?? String(protoNumber)) : null;
  return {
    occurred_at: timeOf(o, now),
    src_ip: src,
    dest_ip: dest,
    src_port: port(o.src_port),
    dest_port: port(o.dest_port),
    proto,
    description: prefix.trim() ? prefix.trim().slice(0, 200) : 'nftables logged packet',
    alert: rule.alert,
    suspicious: false,
    severity: rule.severity,
    raw: JSON.stringify(line).slice(0, 20_000),
  };
}

/** Normalizes one line of text (JSON); null for a blank or unreadable line or one that is not a packet. */
export function normalizeUlogdText(text: string, now = new Date()): NormalEvent | null {
  if (!text.trim()) return null;
  try {
    return normalizeUlogd(JSON.parse(text), now);
  } catch {
    return null;
  }
}
