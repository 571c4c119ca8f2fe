/** The library's vocabulary: sorts, statuses, tag type labels, limits and small helpers over VIDs and labels. */

/** Sort options of the library (jobs-simulations-network-map.md section 2). */
export const LIBRARY_SORTS = ['name', 'vid', 'updated', 'modified', 'added', 'last_run', 'total_runs'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export const SORT_LABELS: Record<LibrarySort, string> = {
  name: 'Name',
  vid: 'VID',
  updated: 'Last Updated',
  modified: 'Modified',
  added: 'Last Added',
  last_run: 'Last Run',
  total_runs: 'Total Runs',
};
export type SortDirection = 'asc' | 'desc';
export const DEFAULT_DIRECTION: Record<LibrarySort, SortDirection> = {
  name: 'asc',
  vid: 'asc',
  updated: 'desc',
  modified: 'desc',
  added: 'desc',
  last_run: 'desc',
  total_runs: 'desc',
};

/** Status filter: 'pending_files' is the spec's "Action Library filtered by Pending Files". */
export const LIBRARY_STATUSES = ['approved', 'unapproved', 'pending_files', 'malicious_files'] as const;
export type LibraryStatus = (typeof LIBRARY_STATUSES)[number];
export const STATUS_LABELS: Record<LibraryStatus, string> = {
  approved: 'Approved',
  unapproved: 'Awaiting Approval',
  pending_files: 'Pending Files',
  malicious_files: 'Restricted Malicious Files',
};

export const TAG_TYPE_LABELS: Record<string, string> = {
  mitre_attack: 'MITRE ATT&CK',
  user: 'User',
  verodin: 'Product',
  os: 'OS',
  src_dst: 'Source/Destination',
  control: 'Control',
  threat_actor: 'Threat Actor',
  malware_family: 'Malware Family',
  file_attachment: 'File Attachment',
  dimensions: 'Dimensions',
};

/** Business constants (jobs-simulations-network-map.md section 9; actions.md section 9). */
export const LIBRARY_LIMITS = {
  /** Default and largest page of the v2 list calls. */
  defaultPageSize: 100,
  maxPageSize: 500,
  /** The legacy paged list: page size 1000 (also its maximum); 204 means not ready, retry after 5 s. */
  legacyPageSize: 1000,
  legacyRetryMs: 5000,
  searchDebounceMs: 500,
  labelMaxChars: 40,
  tileHeightPx: 92,
  jobRefetchMs: 30_000,
  maxSearchChars: 200,
  nameMaxChars: 255,
  descriptionMaxChars: 20_000,
  notesMaxChars: 10_000,
  maxFilterValues: 500,
  /** MON-177: a list item updated within this many days carries a NEW pill; its job status pill is this wide; the item shown slides in over this time. */
  newWithinDays: 14,
  statusPillPx: 110,
  slideTransitionMs: 600,
} as const;

/** MON-177: the item was updated within the last 14 days. */
export const isNewContent = (updatedAt: string, now: number = Date.now()): boolean => now - Date.parse(updatedAt) <= LIBRARY_LIMITS.newWithinDays * 86_400_000;

/** Job statuses after which a run no longer changes: latest runs stop refetching when all are in one. */
export const FINISHED_JOB_STATUSES = ['completed', 'errored', 'cancelled'] as const;
export const isFinishedJobStatus = (status: string): boolean => (FINISHED_JOB_STATUSES as readonly string[]).includes(status);

/** The open ruleset: its detection alerts link to the rule's public documentation. */
export const OPEN_RULESET_SOURCE = 'ET Open';
export const ruleDocumentationUrl = (sid: string): string => `https://doc.emergingthreats.net/${encodeURIComponent(sid)}`;

/** Vendor content: its VID starts with A1 and it cannot be edited (only cloned). */
export const isVendorVid = (vid: string): boolean => /^A1/i.test(vid);

/** "a path segment with an a or s prefix followed by digits or dashes identifies the current item". */
export const LIBRARY_VID_PATTERN = /^[as][0-9][0-9-]*$/i;

/** A tree label cut at 40 characters with an ellipsis. */
export function cutLabel(label: string, max: number = LIBRARY_LIMITS.labelMaxChars): string {
  return label.length > max ? `${label.slice(0, max)}…` : label;
}
