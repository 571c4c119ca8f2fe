import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { APPROVAL_EVENT_LABELS, LIBRARY_LIMITS, LIBRARY_MESSAGES, TAG_TYPE_LABELS, type ActionLibraryDetail, type EditableParam, type LibraryTag } from '@/api/contracts/library';
import { ApiError } from '@/api/http';
import { commands } from '@/commands/registry';
import { CommandToolbar, useCommandHotkeys } from '@/commands/command-menu';
import { fetchDetail, fetchLatestJobs, libraryKeys } from './api';
import { Editable } from './editable';
import { anyRunning, datePart, dateTime, ranBy } from './format';
import { NetworkIcon, ShieldIcon } from './icons';
import { Markdown } from '@/ui/markdown';
import { ApprovalControls, FilesSection } from './preview-content';
import { libraryStore, rememberVersion } from './store';
import { AlertsTable, Badge, Mono, SignaturesList, SimulationsTable, Table } from './ui';
import { Section } from '@/ui/section';
import { ACTION_TYPE_LABELS, DIMENSION_LABELS } from '@/api/contracts/vocabulary';
import { statusLabel } from '@/api/contracts/jobs';

/** The library's keys, read from the commands' keybindings (arrows and Enter are the list's own keys). */
function KeysHint() {
  const [next, previous, preview, search, palette] = useCommandHotkeys(['actions.next', 'actions.previous', 'actions.preview', 'actions.focusSearch', 'palette.open']);
  const parts = [`↑ ↓${next && previous ? ` or ${next} ${previous}` : ''} move`, `Enter${preview ? ` or ${preview}` : ''} previews`, search && `${search} searches`, palette && `${palette} lists every command`];
  return <p className="mt-1 text-2xs">{parts.filter(Boolean).join(', ')}.</p>;
}

/** Latest Runs (ACT-002): by id descending, 'View All (count)', 'Never Run', 'Scheduled Process'; refetched every 30 s while one runs. */
export function LatestRuns({ a, dataUpdatedAt }: { a: Pick<ActionLibraryDetail, 'id' | 'vid' | 'latest_jobs' | 'total_jobs'>; dataUpdatedAt: number }) {
  const q = useQuery({
    queryKey: libraryKeys.latest(a.id),
    queryFn: () => fetchLatestJobs(a.id),
    initialData: { latest_jobs: a.latest_jobs, total_jobs: a.total_jobs },
    initialDataUpdatedAt: dataUpdatedAt,
    staleTime: 5_000,
    refetchInterval: (query) => (anyRunning(query.state.data?.latest_jobs ?? []) ? LIBRARY_LIMITS.jobRefetchMs : false),
  });
  const jobs = [...q.data.latest_jobs].sort((x, y) => y.id - x.id);
  return (
    <Section
      title="Latest Runs"
      actions={
        q.data.total_jobs > 0 && (
          <a href={`/jobs?vid=${encodeURIComponent(a.vid)}`} className="text-2xs text-accent underline">
            View All ({q.data.total_jobs})
          </a>
        )
      }
    >
      {jobs.length === 0 ? (
        <p className="text-muted">Never Run</p>
      ) : (
        <Table
          label="Latest Runs"
          head={['Job', 'Name', 'Status', 'Ran By', 'Started']}
          rows={jobs.map((j) => [
            <a key="id" href={`/jobs/${j.id}`} className="font-mono text-2xs text-accent underline">
              {j.id}
            </a>,
            <span key="n" className="line-clamp-1" title={j.name}>
              {j.name}
            </span>,
            <span key="s" className={j.status === 'completed' ? 'text-emerald-500' : j.status === 'errored' || j.status === 'cancelled' ? 'text-red-500' : 'text-accent'}>
              {statusLabel(j.status)}
            </span>,
            ranBy(j.user),
            dateTime(j.created_at),
          ])}
        />
      )}
    </Section>
  );
}

/** Tags grouped by type; dimension tags apart (ACT-001). */
function TagGroups({ tags }: { tags: LibraryTag[] }) {
  const groups = new Map<string, LibraryTag[]>();
  for (const t of tags.filter((x) => x.tagType !== 'dimensions')) groups.set(t.tagType, [...(groups.get(t.tagType) ?? []), t]);
  const dims = tags.filter((t) => t.tagType === 'dimensions');
  return (
    <>
      <Section title="Tags">
        {groups.size === 0 && <p className="text-muted">No tags.</p>}
        <div className="flex flex-col gap-1.5">
          {[...groups].map(([type, list]) => (
            <div key={type} className="flex flex-wrap items-baseline gap-1.5">
              <span className="w-28 shrink-0 text-2xs text-muted">{TAG_TYPE_LABELS[type] ?? type}</span>
              {list.map((t) => (
                <span key={t.id} className="rounded border border-line bg-raised px-1.5 text-2xs leading-5">
                  {t.name}
                </span>
              ))}
            </div>
          ))}
        </div>
      </Section>
      <Section title="Dimensions">
        {dims.length === 0 ? (
          <p className="text-muted">No dimensions.</p>
        ) : (
          <dl className="grid grid-cols-[minmax(7rem,max-content)_1fr] gap-x-4 gap-y-0.5 text-sm">
            {dims.map((d) => (
              <div key={`${d.dimension}-${d.id}`} className="contents">
                <dt className="text-muted">{d.dimension ? DIMENSION_LABELS[d.dimension] : 'Dimension'}</dt>
                <dd>{d.name}</dd>
              </div>
            ))}
          </dl>
        )}
      </Section>
    </>
  );
}

function History({ a }: { a: ActionLibraryDetail }) {
  return (
    <Section title="Approval History">
      <Table
        label="Approval History"
        head={['When', 'What', 'Version', 'Who']}
        empty="No approvals or file decisions recorded yet."
        rows={a.history.map((e) => [dateTime(e.created_at), `${APPROVAL_EVENT_LABELS[e.event]}${e.file_name ? `: ${e.file_name}` : ''}`, `v${e.action_version}`, <span key="u" title={e.user_email}>{e.user_name}</span>])}
      />
    </Section>
  );
}

export function DetailPanel({ vid }: { vid: string | undefined }) {
  const q = useQuery({ queryKey: libraryKeys.detail(vid ?? ''), queryFn: () => fetchDetail({ vid: vid ?? '' }), enabled: !!vid });
  const a = q.data;
  useEffect(() => {
    if (!a) return;
    rememberVersion(a.id, a.version);
    const cur = libraryStore.current;
    if (!cur || cur.id !== a.id || cur.name !== a.name || cur.approved !== a.approved || cur.require_protected !== a.require_protected)
      libraryStore.current = { id: a.id, vid: a.vid, name: a.name, action_type: a.action_type, approved: a.approved, require_protected: a.require_protected, vendor: a.vendor };
  }, [a]);

  if (!vid)
    return (
      <div className="flex h-full items-center justify-center p-6 text-center text-muted">
        <div>
          <p>Select an Action to see its details.</p>
          <KeysHint />
        </div>
      </div>
    );
  if (q.isPending) return <p className="p-4 text-muted" role="status">Loading {vid}…</p>;
  if (q.error || !a)
    return (
      <p role="alert" className="m-4 rounded border border-red-500/60 bg-red-500/10 p-3">
        {q.error instanceof ApiError ? q.error.message : `Action ${vid} could not be loaded.`}
      </p>
    );

  const canEdit = a.userPermissions.edit;
  const save = (param: EditableParam) => async (value: string) => {
    await commands.execute('actions.updateField', { id: a.id, param_name: param, new_value: value, auth_token: a.auth_token, brt_license: a.brt_license }, 'script');
  };
  const lockedReason = !canEdit ? 'Your role cannot edit Actions.' : undefined;

  return (
    <article className="flex flex-col gap-4 p-4" aria-label={`Action ${a.vid}`}>
      <header className="flex flex-col gap-2">
        <Editable label="Name" param="name" value={a.name} canEdit={canEdit && !a.vendor} lockedReason={a.vendor ? LIBRARY_MESSAGES.vendorEdit : lockedReason} required onSave={save('name')}>
          <h2 className="text-lg leading-snug font-semibold">{a.name}</h2>
        </Editable>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span className="flex items-center gap-1.5">
            {a.vendor_logo && <img src={a.vendor_logo} alt="Vendor content" className="h-4 w-4" />}
            <Mono>{a.vid}</Mono>
            {a.require_protected && <ShieldIcon title="Requires a Protected Theater actor" className="h-4 w-4 text-accent" />}
            {a.monitor_connections && <NetworkIcon title="Monitors network connections" className="h-4 w-4 text-accent" />}
          </span>
          <Badge tone="accent">{ACTION_TYPE_LABELS[a.action_type]}</Badge>
          {a.approved ? <Badge tone="good">Approved</Badge> : <Badge tone="warn">Awaiting Approval</Badge>}
          {a.disabled && <Badge tone="bad">Disabled</Badge>}
          {a.decommissioned && <Badge tone="bad">Decommissioned</Badge>}
          <span className="text-muted">Version {a.version}</span>
          <span className="text-muted">Created {datePart(a.date_created)}</span>
          <span className="text-muted">Modified {datePart(a.date_modified)}</span>
        </div>
        <CommandToolbar menu="toolbar/action-detail" args={a} label="Action commands" />
      </header>

      <ApprovalControls a={a} />

      <Section title="Description">
        <Editable label="Description" param="description" value={a.description} multiline canEdit={canEdit && !a.vendor} lockedReason={a.vendor ? LIBRARY_MESSAGES.vendorEdit : lockedReason} required onSave={save('description')}>
          {a.description ? <Markdown source={a.description} /> : <p className="text-muted">No description.</p>}
        </Editable>
      </Section>

      <Section title="Notes">
        <Editable label="Notes" param="notes" value={a.notes} multiline canEdit={canEdit} lockedReason={lockedReason} onSave={save('notes')}>
          {a.notes ? <p className="whitespace-pre-wrap">{a.notes}</p> : <p className="text-muted">No notes.</p>}
        </Editable>
      </Section>

      <LatestRuns a={a} dataUpdatedAt={q.dataUpdatedAt} />
      <TagGroups tags={a.tags} />
      <FilesSection a={a} files={a.files} />
      <Section title="Common Detection Alerts">
        <AlertsTable alerts={a.detection_alerts} />
      </Section>
      <Section title="Signatures">
        <SignaturesList signatures={a.verodin_signatures} />
      </Section>
      <Section title="Sequences and Evaluations">
        <SimulationsTable simulations={a.simulations} />
      </Section>
      <History a={a} />
    </article>
  );
}
