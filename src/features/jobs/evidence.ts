import { formatLocal } from '@/ui/datetime';
import { actionResult, type JobActionEvidenceAnswer, type JobActionWork } from '@/api/contracts/jobs';

/** A job action's evidence as the panel shows it and Copy puts on the clipboard: one plain text. */

export const evidenceTime = (iso: string | null) => (iso ? formatLocal(new Date(iso), { seconds: true }) : '—');

export function durationText(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** An actor's answer or a stored result, readable: text as is, anything else as indented JSON. */
export function outputText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2);
}

/** The result line: Blocked / Not Blocked / Not Run…, with the reason for an action that did not run. */
export function resultLine(a: JobActionEvidenceAnswer['job_action']): string {
  const r = actionResult(a).text;
  return a.reason ? `${r}: ${a.reason}` : r;
}

const ROLE = { source: 'Source', target: 'Destination' } as const;

export function workLine(w: JobActionWork): string {
  const times = [`queued ${evidenceTime(w.created_at)}`, w.claimed_at && `claimed ${evidenceTime(w.claimed_at)}`, w.ready_at && `ready ${evidenceTime(w.ready_at)}`, w.finished_at && `finished ${evidenceTime(w.finished_at)}`];
  return `${ROLE[w.role]} actor ${w.actor?.name ?? '(removed)'}: ${w.status}, ${times.filter(Boolean).join(', ')}${w.error ? ` · Error: ${w.error}` : ''}`;
}

export function evidenceText(e: JobActionEvidenceAnswer): string {
  const a = e.job_action;
  const lines = [
    `Job action ${a.id}: ${a.name} (${a.sim_action_vid})`,
    `Job ${a.job_id}, step ${a.step.group_order}: ${a.step.name}`,
    `Type: ${a.action_type.replace(/_/g, ' ')}`,
    `Result: ${resultLine(a)}`,
  ];
  if (a.blocked_msg && a.blocked_msg !== a.reason) lines.push(`${a.blocked ? 'Blocked' : 'Not blocked'}: ${a.blocked_msg}`);
  if (a.detected_msg) lines.push(`Detected: ${a.detected_msg}`);
  lines.push(`Started: ${evidenceTime(a.started_at)} · Finished: ${evidenceTime(a.finished_at)} · Duration: ${durationText(a.duration_ms)}`);
  for (const w of e.work) {
    lines.push(workLine(w));
    const out = outputText(w.result);
    if (out) lines.push(`Output (${ROLE[w.role].toLowerCase()}):`, out);
  }
  if (Object.keys(a.evidence).length) lines.push('Evidence:', outputText(a.evidence));
  if (e.events) {
    lines.push(`Events (${e.events.length}):`);
    for (const ev of e.events) lines.push(`- ${evidenceTime(ev.occurred_at)} · ${ev.integration?.name ?? 'Unknown integration'} · ${ev.description}${ev.suspicious ? ' (suspicious)' : ''}`);
  }
  return lines.join('\n');
}
