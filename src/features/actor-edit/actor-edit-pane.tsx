import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode, type SelectHTMLAttributes } from 'react';
import { tagOptionsQuery } from '@/api/tag-options';
import { NODE_TYPES, type NodeDetail, type NodeType, type NodeUpdate } from '@/api/contracts/node-edit';
import { CommandButton } from '@/commands/command-menu';
import { usePaneContext } from '@/panes/use-pane-context';
import { TAGS_UPDATED_EVENT, tagTargets, type TagRunResult, type TagsEventDetail } from '@/commands/tag-targets';
import type { PaneProps } from '@/panes/types';
import { commands } from '@/commands/registry';
import { Field } from '@/ui/field';
import { useNode } from './api';
import { actorEditPane } from './pane-context';
import { TagEditor } from '@/ui/tag-editor';
import { formatTimestamp } from '@/ui/datetime';

interface Draft {
  name: string;
  friendly_name: string;
  security_zone_id: number | null;
  node_type: NodeType;
  sandbox_node_id: number | null;
}

const draftOf = (a: NodeDetail): Draft => ({ name: a.name, friendly_name: a.friendly_name, security_zone_id: a.security_zone_id, node_type: a.node_type, sandbox_node_id: a.sandbox_node_id });

function changesOf(a: NodeDetail, d: Draft): NodeUpdate | null {
  const c: NodeUpdate = {};
  if (d.name !== a.name) c.name = d.name;
  if (d.friendly_name !== a.friendly_name) c.friendly_name = d.friendly_name;
  if (d.security_zone_id !== a.security_zone_id) c.security_zone_id = d.security_zone_id;
  if (d.node_type !== a.node_type) c.node_type = d.node_type;
  if (d.sandbox_node_id !== a.sandbox_node_id) c.sandbox_node_id = d.sandbox_node_id;
  return Object.keys(c).length ? c : null;
}

const fmt = (iso: string | null) => formatTimestamp(iso, { fallback: 'Never' });

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="font-mono text-xs">{children || '—'}</dd>
    </>
  );
}

/** /topology/nodes/{id}/edit: what an operator may change, and the facts the actor reports. */
export function ActorEditPane({ params }: PaneProps) {
  const id = Number(params.id);
  const { data, isLoading, error, refetch } = useNode(id);
  const [actor, setActor] = useState<NodeDetail | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const canManage = commands.context().permissions.has('actors.manage');
  // MON-132: the option list from the tag options call (user tags offered to actors).
  const tagOptions = useQuery(tagOptionsQuery('user', 'nodes'));

  // A fresh answer replaces the form only while nothing is typed (a save or a refetch after one).
  useEffect(() => {
    if (!data) return;
    setActor(data.data);
    setDraft((d) => (d && actor && changesOf(actor, d) ? d : draftOf(data.data)));
  }, [data]);

  usePaneContext(actorEditPane, {
    actor: () => actor,
    changes: () => (actor && draft ? changesOf(actor, draft) : null),
    saved: (a: NodeDetail) => (setActor(a), setDraft(draftOf(a)), setMessage(null)),
    failed: (m: string) => setMessage(m),
  });

  // tags.add / tags.remove act on this actor; their "tags updated" event reloads it (MON-141).
  usePaneContext(tagTargets, { taggable: 'nodes', items: () => (actor ? [{ id: actor.id, name: actor.name }] : []) });
  useEffect(() => {
    const onTags = (e: Event) => {
      const d = (e as CustomEvent<TagsEventDetail>).detail;
      if (d?.taggable === 'nodes' && d.ids.includes(id)) void refetch();
    };
    document.addEventListener(TAGS_UPDATED_EVENT, onTags);
    return () => document.removeEventListener(TAGS_UPDATED_EVENT, onTags);
  }, [id, refetch]);

  if (!Number.isInteger(id) || id <= 0) return <p role="alert" className="p-4">"{params.id}" is not an actor id.</p>;
  if (isLoading) return <p className="p-4 text-muted">Loading actor {id}…</p>;
  if (error)
    return (
      <div role="alert" className="flex items-center gap-2 p-4">
        {error.message}
        <button type="button" className="underline" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  if (!actor || !draft || !data) return null;
  const set = (patch: Partial<Draft>) => (setDraft({ ...draft, ...patch }), setMessage(null));
  const readOnly = !canManage;

  return (
    <div className="flex max-w-3xl flex-col gap-4 p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">
          Actor {actor.name}
          {actor.retired_at && <span className="ml-2 rounded bg-red-500/20 px-2 py-0.5 text-xs text-red-300">Retired</span>}
        </h2>
        <div className="flex gap-1.5" role="toolbar" aria-label="Actor">
          <CommandButton command="actorEdit.save" variant="primary" />
          <CommandButton command="actorEdit.retire" variant="danger" />
          <CommandButton command="actorEdit.enable" />
        </div>
      </div>
      {readOnly && <p className="text-xs text-muted">Your role may read this actor but not change it.</p>}
      {message && (
        <div role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm">
          {message}
        </div>
      )}
      <form
        aria-label="Edit actor"
        className="grid grid-cols-2 gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void commands.execute('actorEdit.save', undefined, 'button').catch(() => undefined);
        }}
      >
        <Field label="Name" value={draft.name} disabled={readOnly} onChange={(e) => set({ name: e.target.value })} />
        <Field label="Friendly name" value={draft.friendly_name} disabled={readOnly} onChange={(e) => set({ friendly_name: e.target.value })} />
        <SelectField label="Zone" disabled={readOnly} value={draft.security_zone_id ?? ''} onChange={(e) => set({ security_zone_id: e.target.value ? Number(e.target.value) : null })}>
          <option value="">No zone</option>
          {data.options.zones.map((z) => (
            <option key={z.id} value={z.id}>
              {z.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Type" disabled={readOnly} value={draft.node_type} onChange={(e) => set({ node_type: e.target.value as NodeType })}>
          {NODE_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Sandbox"
          hint="The actor that runs this one's interactive run-as sessions (host_cli with a run-as profile)."
          disabled={readOnly}
          value={draft.sandbox_node_id ?? ''}
          onChange={(e) => set({ sandbox_node_id: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">No sandbox</option>
          {data.options.actors
            .filter((a) => a.id !== actor.id)
            .map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          {/* A sandbox retired since it was chosen is still shown as the current value. */}
          {actor.sandbox_node_id !== null && !data.options.actors.some((a) => a.id === actor.sandbox_node_id) && <option value={actor.sandbox_node_id}>{actor.sandbox_name ?? `Actor ${actor.sandbox_node_id}`}</option>}
        </SelectField>
        <div className="col-span-2">
          <span className="mb-1 block text-xs font-medium text-muted">Tags</span>
          <TagEditor
            label="Tags of this actor"
            tags={actor.user_tags.map((name) => ({ name, editable: !actor.locked_tags.includes(name) }))}
            options={tagOptions.data?.map((t) => t.name) ?? data.options.user_tags}
            isEditable={commands.context().permissions.has('tags.edit')}
            change={async (op, tag) => (await commands.execute<TagRunResult>(`tags.${op}`, { tag }, 'button')).replies[actor.id]}
          />
        </div>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </form>
      <section aria-label="Reported by the actor">
        <h3 className="mb-2 text-sm font-semibold">Reported by the actor</h3>
        <dl className="grid grid-cols-[12rem_1fr] gap-x-3 gap-y-1 text-sm">
          <Fact label="Status">{actor.status}{actor.status_details ? ` (${actor.status_details})` : ''}</Fact>
          <Fact label="Last contact">{fmt(actor.last_heartbeat_at)}</Fact>
          <Fact label="Registered">{actor.registered ? 'Yes' : 'No, it never connected'}</Fact>
          <Fact label="OS">{[actor.os_base, actor.os].filter(Boolean).join(', ')}</Fact>
          <Fact label="Runs as (username)">{actor.username}</Fact>
          <Fact label="Actor version">{actor.node_version}</Fact>
          <Fact label="Management address">{actor.mgmt_address}</Fact>
          <Fact label="Simulation address">{actor.sim_address}</Fact>
          <Fact label="Monitor address">{actor.monitor_address}</Fact>
          <Fact label="Service version">{actor.msi_service_version}</Fact>
          <Fact label="Dependencies installed">{actor.deps_installed ? 'Yes' : 'No'}</Fact>
          {actor.retired_at && <Fact label="Retired">{fmt(actor.retired_at)}</Fact>}
        </dl>
      </section>
    </div>
  );
}

/** A labelled select of this form (the label wraps it, with an optional hint under it). */
function SelectField({ label, hint, children, ...rest }: { label: string; hint?: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-muted">
      {label}
      <select className="rounded border border-line bg-surface px-2 py-1.5 text-sm text-ink" {...rest}>
        {children}
      </select>
      {hint && <span className="text-2xs font-normal">{hint}</span>}
    </label>
  );
}
