import type { ReactNode } from 'react';
import { format, formatDistanceToNowStrict } from 'date-fns';
import type { JobSummary } from '@/api/contracts/library';

/** Small building blocks of the Simulations panes (the Action library keeps its own). */

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="flex flex-col gap-1.5" aria-label={title}>
      <div className="flex items-center justify-between gap-2 border-b border-line pb-1">
        <h3 className="text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h3>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function dateTime(iso: string | null | undefined): string {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? format(d, 'yyyy-MM-dd HH:mm') : '--';
}

export function relative(iso: string | null | undefined): string {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? `${formatDistanceToNowStrict(d)} ago` : 'never';
}

/** A job's user, or 'Scheduled Process' when it has none. */
export function ranBy(user: JobSummary['user']): string {
  const name = user ? `${user.first_name} ${user.last_name}`.trim() : '';
  return name || 'Scheduled Process';
}

export function statusTone(status: string): string {
  return status === 'completed' ? 'text-emerald-500' : status === 'errored' || status === 'cancelled' ? 'text-red-500' : 'text-accent';
}
