import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { APPROVE_LABELS, LIBRARY_MESSAGES, approvalVariants, type AttachedFile, type PreviewProps } from '@/api/contracts/library';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { fetchPreview, libraryKeys } from './api';
import { dateTime } from './format';
import { NetworkIcon, RestrictionBadge, ShieldIcon } from './icons';
import { Markdown } from '@/ui/markdown';
import { rememberVersion } from './store';
import { TypeDetail } from './type-detail';
import { AlertsTable, Badge, Fields, Mono, SignaturesList, SimulationsTable, Table } from './ui';
import { Section } from '@/ui/section';
import { useSubmit } from '@/ui/use-submit';
import { ACTION_TYPE_LABELS, type ActionType } from '@/api/contracts/vocabulary';

const run = (id: string, args: Record<string, unknown>) => commands.execute(id, args, 'button').catch(() => undefined);

export interface ApprovalSubject {
  id: number;
  vid: string;
  action_type: ActionType;
  approved: boolean;
  require_protected: boolean;
  version: number;
  vendor: boolean;
  eligible_for_approval: boolean;
  ineligible_reason: string | null;
  malicious_files: number;
  userPermissions: PreviewProps['userPermissions'];
  simulations: { vid: string }[];
}

const APPROVE_COMMAND = { anywhere: 'actions.approveAnywhere', protected: 'actions.approveProtected', cloud: 'actions.approveCloud' } as const;

/**
 * Approval controls (actions.md sections 4 and 5): shown only to a user with approve plus
 * endpointApproval (cloudApproval for cloud) while the Action is not approved. A cloud Action with a
 * malicious-restricted file is not eligible: only Edit is offered.
 */
export function ApprovalControls({ a }: { a: ApprovalSubject }) {
  // The command reports its own failure (a flash), so no message is shown here.
  const { busy, run: submit } = useSubmit();
  const variants = approvalVariants(a);
  if (!variants.length) return null;
  const act = (id: string, args: Record<string, unknown>) => submit(() => run(id, args));
  if (a.action_type === 'cloud' && a.malicious_files > 0) {
    return (
      <div role="group" aria-label="Approval" className="flex flex-wrap items-center gap-2 rounded border border-red-500/50 bg-red-500/10 p-2">
        <span className="flex-1">{LIBRARY_MESSAGES.maliciousIneligible}</span>
        <Button onClick={() => void act('actions.edit', { id: a.id })}>Edit</Button>
      </div>
    );
  }
  return (
    <div role="group" aria-label="Approval" className="flex flex-col gap-2 rounded border border-amber-500/50 bg-amber-500/10 p-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="mr-auto text-sm font-medium">This Action is awaiting approval.</span>
        {variants.map((v) => (
          <Button key={v} variant="primary" disabled={busy || !a.eligible_for_approval} onClick={() => void act(APPROVE_COMMAND[v], { id: a.id, version: a.version })}>
            {APPROVE_LABELS[v]}
          </Button>
        ))}
        <Button variant="danger" disabled={busy} onClick={() => void act('actions.reject', { id: a.id })}>
          Reject
        </Button>
      </div>
      {a.ineligible_reason && <p className="text-2xs">{a.ineligible_reason}</p>}
      {a.simulations.length > 0 && (
        <p className="text-2xs text-muted">
          Rejecting deletes this Action and removes it from {a.simulations.length === 1 ? 'the Sequence or Evaluation' : `the ${a.simulations.length} Sequences and Evaluations`} that use it (
          {a.simulations.map((s) => s.vid).join(', ')}).
        </p>
      )}
    </div>
  );
}

/** Attached files; a pending file can be approved as safe, restricted as malicious, or removed (ACT-060). */
export function FilesSection({ a, files, title = 'Files' }: { a: ApprovalSubject; files: AttachedFile[]; title?: string }) {
  const perms = a.userPermissions;
  const mayDecide = perms.approve && (a.action_type === 'cloud' ? perms.cloudApproval : perms.endpointApproval);
  if (!files.length) return null;
  return (
    <Section title={title}>
      <Table
        label={title}
        head={['File', 'SHA256', 'Variable', 'Status', '']}
        rows={files.map((f) => [
          f.orig_file_name,
          <span key="s" className="font-mono text-2xs whitespace-nowrap" title={f.sha256sum}>
            {f.sha256sum.slice(0, 12)}…
          </span>,
          f.variable_name ? (
            <span key="v" className="font-mono text-2xs whitespace-nowrap">
              {f.variable_name}
            </span>
          ) : (
            '--'
          ),
          <RestrictionBadge key="r" restriction={f.file_restrictions} />,
          mayDecide && f.file_restrictions === 'pending_approval' ? (
            <span key="b" className="flex flex-wrap gap-1">
              <Button onClick={() => void run('actions.fileApprove', { id: a.id, file_id: f.id, file_name: f.orig_file_name })} aria-label={`Approve ${f.orig_file_name} as safe`}>
                Approve as Safe
              </Button>
              <Button onClick={() => void run('actions.fileRestrict', { id: a.id, file_id: f.id, file_name: f.orig_file_name })} aria-label={`Restrict ${f.orig_file_name} as malicious`}>
                Restrict as Malicious
              </Button>
              {a.action_type !== 'file_transfer' && (
                <Button variant="ghost" onClick={() => void run('actions.fileRemove', { id: a.id, file_id: f.id, file_name: f.orig_file_name })} aria-label={`Remove ${f.orig_file_name} from the Action`}>
                  Remove
                </Button>
              )}
            </span>
          ) : (
            ''
          ),
        ])}
      />
    </Section>
  );
}

function describeCondition(c: unknown): string {
  if (!c || typeof c !== 'object') return String(c);
  const o = c as Record<string, unknown>;
  if (Array.isArray(o.conditions)) {
    const inner = o.conditions.map(describeCondition);
    return inner.length > 1 ? `(${inner.join(` ${String(o.operator ?? 'and')} `)})` : (inner[0] ?? '');
  }
  const value = Array.isArray(o.value) ? `[${o.value.join(', ')}]` : String(o.value ?? '');
  return `${String(o.match_object ?? '')}.${String(o.match_field ?? '')} ${String(o.operator ?? '')} ${value}`;
}

export function EventFilterRules({ rules }: { rules: unknown[] }) {
  return (
    <Section title="Event Filter Rules">
      {rules.length ? (
        <ol className="flex flex-col gap-1 font-mono text-2xs">
          {rules.map((r, i) => (
            <li key={i}>{describeCondition(r)}</li>
          ))}
        </ol>
      ) : (
        <p className="text-muted">No event filter rules.</p>
      )}
    </Section>
  );
}

/** Common header details of the preview. */
function Header({ p }: { p: PreviewProps }) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Mono>{p.vid}</Mono>
        {p.require_protected && <ShieldIcon title="Requires a Protected Theater actor" className="h-4 w-4 text-accent" />}
        {p.monitor_connections && <NetworkIcon title="Monitors network connections" className="h-4 w-4 text-accent" />}
        <Badge tone="accent">{ACTION_TYPE_LABELS[p.action_type]}</Badge>
        {p.approved ? <Badge tone="good">Approved{p.approve_anywhere ? ' (anywhere)' : p.require_protected ? ' (Protected Theater)' : ''}</Badge> : <Badge tone="warn">Awaiting Approval</Badge>}
        {p.disabled && <Badge tone="bad">Disabled</Badge>}
        {p.decommissioned && <Badge tone="bad">Decommissioned</Badge>}
        {p.vendor && <Badge>Vendor content</Badge>}
      </div>
      <h3 className="text-base font-semibold">{p.sim_name}</h3>
      {p.description && <Markdown source={p.description} className="text-sm" />}
      <Fields
        rows={[
          ['Version', String(p.version)],
          ['Timeout', p.timeout_ms === null ? '--' : `${Math.round(p.timeout_ms / 1000)} s`],
          ['Created', dateTime(p.date_created)],
          ['Modified', dateTime(p.date_modified)],
        ]}
      />
    </div>
  );
}

export function usePreview(id: number | null) {
  const q = useQuery({ queryKey: libraryKeys.preview(id ?? 0), queryFn: () => fetchPreview(id ?? 0), enabled: id !== null });
  useEffect(() => {
    if (q.data) rememberVersion(q.data.id, q.data.version);
  }, [q.data]);
  return q;
}

/** The content of the Action Preview, in the modal and in the preview pane. */
export function PreviewContent({ p }: { p: PreviewProps }) {
  const sleep = p.action_type === 'sleep';
  return (
    <div className="flex flex-col gap-4" data-action-type={p.action_type}>
      <ApprovalControls a={p} />
      <Header p={p} />
      {/* The type detail lists every file; decisions on pending files get their own section. */}
      <FilesSection a={p} files={p.files.filter((f) => f.file_restrictions === 'pending_approval')} title="Files Pending Approval" />
      {sleep ? (
        <p className="rounded border border-line bg-raised p-3 text-muted">{LIBRARY_MESSAGES.noPreviewSleep}</p>
      ) : (
        <Section title={`${ACTION_TYPE_LABELS[p.action_type]} Details`}>
          <TypeDetail p={p} />
        </Section>
      )}
      <EventFilterRules rules={p.event_filter_rules} />
      {!sleep && (
        <>
          <Section title="Sequences and Evaluations">
            <SimulationsTable simulations={p.simulations} />
          </Section>
          <Section title="Signatures">
            <SignaturesList signatures={p.verodin_signatures} />
          </Section>
          <Section title="Common Detection Alerts">
            <AlertsTable alerts={p.detection_alerts} />
          </Section>
        </>
      )}
    </div>
  );
}
