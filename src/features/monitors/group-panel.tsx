import { useEffect } from 'react';
import type { ActionInfo, MonitorEditorOptions, MonitorGroupBody } from '@/api/contracts/monitors';
import { runAsState, type RunAsMode } from '@/api/contracts/run-as-selection';

const input = 'rounded border border-line bg-surface px-2 py-1 text-sm';
type Group = Omit<MonitorGroupBody, 'actions'>;
export type SessionTicks = Partial<Record<RunAsMode, boolean>>;

/** The run-as rules' state of a group in the editor (MON-064..067, MON-103..106): its mode, selected actors, actions. */
export function groupRunAs(group: Group, actions: readonly ActionInfo[], options: MonitorEditorOptions, ticks: SessionTicks = {}) {
  const mode: RunAsMode = group.run_between === 'zone' ? 'zone' : 'actor';
  const selected = group.run_between === 'zone' ? (group.attack_zone === null ? [] : options.nodes.filter((n) => n.zone_id === group.attack_zone)) : options.nodes.filter((n) => n.id === group.attack_node);
  const state = runAsState({
    actionTypes: actions.map((a) => a.action_type),
    protectedAction: actions.some((a) => a.require_protected),
    mode,
    selected,
    profile: group.action_user_profile,
    required: group.require_interactive,
    default: false,
    userTick: ticks,
  });
  return { mode, state };
}

/**
 * MON-011, MON-034: 'Group N: name' with where its actions run. Choosing another email profile clears
 * the chosen actor or zone (MON-078); with an interactive desktop session only zones holding an actor
 * are offered (MON-100). The Run As select and the Interactive Session checkbox follow the run-as rules
 * (MON-064..067, MON-103..106): every change of profile, actor, zone or mode recomputes them, and the
 * user's own tick is remembered per mode (onTick).
 */
export function GroupPanel({
  index,
  group,
  actions = [],
  ticks = {},
  options,
  errors,
  onChange,
  onTick,
}: {
  index: number;
  group: Group;
  /** The group's Actions (type and protection decide the run-as rules). */
  actions?: readonly ActionInfo[];
  ticks?: SessionTicks;
  options: MonitorEditorOptions;
  errors: Record<string, string[]>;
  onChange(patch: Partial<Group>): void;
  onTick?(mode: RunAsMode, checked: boolean): void;
}) {
  const zone = group.run_between === 'zone';
  const { mode, state } = groupRunAs(group, actions, options, ticks);
  const profileCleared = !state.supported && group.action_user_profile !== null;
  // MON-064: a change of profile or selection recomputes the checkbox; an unsupported select is emptied.
  useEffect(() => {
    const patch: Partial<Group> = {};
    if (profileCleared) patch.action_user_profile = null;
    if (state.sessionChecked !== group.interactive_desktop_session) patch.interactive_desktop_session = state.sessionChecked;
    if (Object.keys(patch).length) onChange(patch);
  }, [profileCleared, state.sessionChecked, group.interactive_desktop_session, onChange]);
  const interactive = group.interactive_desktop_session || group.require_interactive;
  const zones = options.zones.filter((z) => !interactive || z.node_count > 0);
  const err = (f: string) => errors[`steps[${index}].${f}`]?.join(' ');
  const side = (s: 'attack' | 'target', label: string) => {
    const key = `${s}_${zone ? 'zone' : 'node'}` as const;
    const value = group[key];
    return (
      <label className="flex flex-col gap-1 text-xs">
        <span className="text-muted">{label}</span>
        <select className={input} value={value ?? ''} aria-invalid={!!err(key)} onChange={(e) => onChange({ [key]: e.target.value ? Number(e.target.value) : null })}>
          <option value="">Choose…</option>
          {zone
            ? zones.map((z) => (
                <option key={z.id} value={z.id}>
                  {z.name} ({z.node_count} actor{z.node_count === 1 ? '' : 's'})
                </option>
              ))
            : options.nodes.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name} ({n.status})
                </option>
              ))}
        </select>
        {err(key) && <span className="text-xs text-red-400">{err(key)}</span>}
      </label>
    );
  };
  const profile = (f: 'from_email_profile' | 'to_email_profile', label: string) => (
    <label className="flex flex-col gap-1 text-xs">
      <span className="text-muted">{label}</span>
      <select
        className={input}
        value={group[f] ?? ''}
        onChange={(e) => {
          const v = e.target.value ? Number(e.target.value) : null;
          // MON-078: another email profile clears the chosen actor or zone of that side.
          const cleared = f === 'from_email_profile' ? { attack_node: null, attack_zone: null } : { target_node: null, target_zone: null };
          onChange(v === group[f] ? {} : { [f]: v, ...cleared });
        }}
      >
        <option value="">None</option>
        {options.email_profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.kind})
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section aria-label={`Group ${index + 1}: ${group.name}`} className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold">
        Group {index + 1}: {group.name || 'Unnamed'}
      </h3>
      <div className="grid grid-cols-2 gap-3">
        <label className="flex flex-col gap-1 text-xs">
          <span className="text-muted">Group name</span>
          <input className={input} value={group.name} onChange={(e) => onChange({ name: e.target.value })} />
        </label>
        <fieldset className="flex flex-col gap-1 text-xs">
          <legend className="text-muted">Run between</legend>
          <div className="flex gap-3 py-1">
            {(['node', 'zone'] as const).map((r) => (
              <label key={r} className="flex items-center gap-1">
                <input type="radio" name={`run-between-${index}`} checked={group.run_between === r} onChange={() => onChange({ run_between: r })} />
                {r === 'node' ? 'Actors' : 'Zones'}
              </label>
            ))}
          </div>
        </fieldset>
        {side('attack', zone ? 'Source Zone' : 'Source Actor')}
        {side('target', zone ? 'Destination Zone' : 'Destination Actor')}
        {profile('from_email_profile', 'From Email Profile')}
        {profile('to_email_profile', 'To Email Profile')}
        <label className="flex flex-col gap-1 text-xs">
          <span className="text-muted">Scan Interfaces (comma separated)</span>
          <input className={input} value={group.scan_interfaces.join(', ')} onChange={(e) => onChange({ scan_interfaces: e.target.value.split(',').map((s) => s.trim()).filter(Boolean) })} />
        </label>
        <label className="flex flex-col gap-1 text-xs">
          <span className="text-muted">Run As</span>
          <select
            className={input}
            value={group.action_user_profile ?? ''}
            disabled={!state.supported}
            aria-invalid={!!err('action_user_profile')}
            title={state.supported ? undefined : 'Run-as user applies to host_cli, and to other types (not cloud or email) on a selected Windows actor 4.10.0 or later, endpoint or protected.'}
            onChange={(e) => onChange({ action_user_profile: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">Run as System</option>
            {options.action_user_profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.friendly_name} ({p.username})
              </option>
            ))}
          </select>
          {err('action_user_profile') && <span className="text-xs text-red-400">{err('action_user_profile')}</span>}
        </label>
        <div className="col-span-2 flex flex-wrap gap-4 text-xs">
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={group.proxy_comm} onChange={(e) => onChange({ proxy_comm: e.target.checked })} /> Proxy communication
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={group.use_ip_addresses} onChange={(e) => onChange({ use_ip_addresses: e.target.checked })} /> Use IPs instead of FQDN
          </label>
          {!state.sessionHidden && (
            <label className="flex items-center gap-1" title={state.sessionForced ? 'Forced: the action is protected and every selected actor is a valid sandboxed actor.' : undefined}>
              <input
                type="checkbox"
                checked={state.sessionChecked}
                disabled={state.sessionDisabled}
                onChange={(e) => {
                  onTick?.(mode, e.target.checked);
                  onChange({ interactive_desktop_session: e.target.checked });
                }}
              />{' '}
              Interactive Session
            </label>
          )}
        </div>
        {err('interactive_desktop_session') && <span className="col-span-2 text-xs text-red-400">{err('interactive_desktop_session')}</span>}
      </div>
    </section>
  );
}
