import { FAIL_COLOR, PASS_COLOR } from '@/api/contracts/reports';

/**
 * Result badges of job actions (monitors-actors-reporting.md section 3 "Result badges"): Alerted, Not
 * Successful, Event Matching, Errored, Not Run, Sleep, Running, Blocked, Not Blocked, Incompatible, and
 * a percent-blocked bar.
 */
export const RESULT_BADGES = ['Alerted', 'Not Successful', 'Event Matching', 'Errored', 'Not Run', 'Sleep', 'Running', 'Blocked', 'Not Blocked', 'Incompatible'] as const;
export type ResultBadgeText = (typeof RESULT_BADGES)[number];

type Tone = 'pass' | 'fail' | 'neutral' | 'busy';
const TONE: Record<ResultBadgeText, Tone> = {
  Alerted: 'pass',
  Blocked: 'pass',
  'Event Matching': 'busy',
  Running: 'busy',
  'Not Blocked': 'fail',
  'Not Successful': 'fail',
  Errored: 'fail',
  'Not Run': 'neutral',
  Sleep: 'neutral',
  Incompatible: 'neutral',
};
const TONE_CLASS: Record<Tone, string> = {
  pass: 'border-emerald-400/60 text-emerald-300',
  fail: 'border-red-500/60 text-red-400',
  neutral: 'border-line text-muted',
  busy: 'border-sky-400/60 text-sky-300',
};

export interface BadgeInput {
  status: string;
  action_type?: string;
  alerted: boolean;
  blocked: boolean | null;
  events: number;
}

/**
 * The badge of a job action: while it runs 'Running', while the detection window is open 'Event
 * Matching'; once it ran: a sleep is 'Sleep', then Alerted, Blocked / Not Blocked when blocking was
 * evaluated, 'Event Matching' when only events matched, else 'Not Successful'.
 */
export function resultBadge(a: BadgeInput): ResultBadgeText {
  switch (a.status) {
    case 'pending':
    case 'running':
    case 'reverting':
      return 'Running';
    case 'waiting':
      return 'Event Matching';
    case 'errored':
      return 'Errored';
    case 'incompatible':
      return 'Incompatible';
    case 'not run':
    case 'cancelled':
      return 'Not Run';
  }
  if (a.action_type === 'sleep') return 'Sleep';
  if (a.alerted) return 'Alerted';
  if (a.blocked === true) return 'Blocked';
  if (a.blocked === false) return 'Not Blocked';
  return a.events > 0 ? 'Event Matching' : 'Not Successful';
}

export function ResultBadge({ text }: { text: ResultBadgeText }) {
  return <span className={`inline-block whitespace-nowrap rounded border px-1.5 text-[11px] leading-4 ${TONE_CLASS[TONE[text]]}`}>{text}</span>;
}

/** A bar of the percent blocked (pass colour) against the rest (fail colour). */
export function PercentBlockedBar({ percent }: { percent: number }) {
  const p = Math.max(0, Math.min(100, percent));
  return (
    <span className="inline-flex items-center gap-1 text-[11px]" role="img" aria-label={`${p}% blocked`}>
      <span className="inline-flex h-2 w-16 overflow-hidden rounded" style={{ background: FAIL_COLOR }}>
        <span style={{ width: `${p}%`, background: PASS_COLOR }} />
      </span>
      {p}%
    </span>
  );
}
