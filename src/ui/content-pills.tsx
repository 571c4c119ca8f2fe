import { LIBRARY_LIMITS, isNewContent } from '@/api/contracts/library';

/** MON-177: 'NEW' on a content list item updated within the last 14 days. */
export function NewPill({ updatedAt }: { updatedAt: string }) {
  return isNewContent(updatedAt) ? (
    <span className="inline-flex items-center rounded-full border border-accent/40 bg-accent/10 px-1.5 text-2xs leading-5 font-semibold text-accent" title={`Updated within the last ${LIBRARY_LIMITS.newWithinDays} days`}>
      NEW
    </span>
  ) : null;
}

/** MON-177: the status of the item's latest job while it runs, as a 110 px pill. */
export function StatusPill({ status }: { status: string }) {
  return (
    <span className="inline-block truncate rounded-full border border-accent/40 bg-accent/10 text-center text-accent" style={{ width: LIBRARY_LIMITS.statusPillPx }} title={status}>
      {status}
    </span>
  );
}
