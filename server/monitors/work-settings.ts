/**
 * What a monitor adds to the work of its runs (section 3 "Group configuration" and "Action
 * configuration"): the group's run-as user profile (action_user_profile) and interactive desktop
 * session as the run-as rules allow them on the actor that performs the action (MON-103..106, MON-065:
 * not for cloud and email, always for host_cli, otherwise only on a valid run-as actor; the session
 * forced for a protected action on a valid sandboxed actor), scan_interfaces, proxy_comm and use_ip_addresses, and the
 * action's runtime_* values, which replace the Action's own detail of the same name. The engine calls
 * this for every job action before its type's preparer, so host_cli's run-as preparer resolves the
 * profile the monitor chose; other types get run_as resolved here.
 */
import type { Db } from '../db/index';
import { withRunAsUser } from '../engine/run-as';
import { runAsState } from '../../src/api/contracts/run-as-selection';
import { runAsActors } from './run-as';
/** A runtime field whose Action detail has another name, by action type (file_transfer reads target_port itself). */
const RUNTIME_ALIASES: Record<string, Record<string, string>> = { pcap: { target_port: 'server_port' } };
/** Runtime fields the engine resolves itself rather than copying into the details (dns: peer-dns.ts). */
const RESOLVED_BY_ENGINE = new Set(['runtime_temporary_dns_server']);

/** The runtime_temporary_dns_server of the monitor action a job action runs, if any (MON-037). */
export async function temporaryDnsServer(tx: Db, jobActionId: number): Promise<string | null> {
  const [row] = await tx.query<{ server: string | null }>(
    `select ma.config->'runtime'->>'runtime_temporary_dns_server' as server from job_actions ja join monitor_actions ma on ma.id = ja.monitor_action_id where ja.id = $1`,
    [jobActionId],
  );
  return row?.server?.trim() || null;
}
/** Runtime fields the actor reads as numbers (the editor's inputs give text). */
const NUMERIC_RUNTIME = new Set(['target_port']);

interface Settings {
  step: {
    action_user_profile?: number | null;
    interactive_desktop_session?: boolean;
    require_interactive?: boolean;
    scan_interfaces?: string[];
    proxy_comm?: boolean;
    use_ip_addresses?: boolean;
  };
  action: { runtime?: Record<string, unknown> };
  require_protected: boolean | null;
}

/** The job action's details with its monitor's settings; unchanged for a job action no monitor started. */
export async function withMonitorSettings(tx: Db, jobActionId: number, actionType: string, details: Record<string, unknown>, sourceNodeId: number | null): Promise<Record<string, unknown>> {
  const [row] = await tx.query<Settings>(
    `select ms.config as step, ma.config as action, a.require_protected
       from job_actions ja join monitor_actions ma on ma.id = ja.monitor_action_id join monitor_steps ms on ms.id = ma.monitor_step_id
       left join actions a on a.id = ja.action_id
      where ja.id = $1`,
    [jobActionId],
  );
  if (!row) return details;
  const out: Record<string, unknown> = { ...details };
  for (const [key, value] of Object.entries(row.action.runtime ?? {})) {
    if (value === '' || value === null || value === undefined || RESOLVED_BY_ENGINE.has(key)) continue;
    const name = key.replace(/^runtime_/, '');
    const numeric = NUMERIC_RUNTIME.has(name) && typeof value === 'string' && /^\d+$/.test(value.trim());
    out[RUNTIME_ALIASES[actionType]?.[name] ?? name] = numeric ? Number(value) : value;
  }
  out.scan_interfaces = row.step.scan_interfaces ?? [];
  out.proxy_comm = row.step.proxy_comm === true;
  out.use_ip_addresses = row.step.use_ip_addresses === true;
  const profile = row.step.action_user_profile ?? null;
  const performer = sourceNodeId === null ? [] : await runAsActors(tx, [sourceNodeId]);
  const state = runAsState({
    actionTypes: [actionType],
    protectedAction: row.require_protected === true,
    mode: 'actor',
    selected: performer,
    profile,
    required: row.step.require_interactive === true,
    default: false,
    userTick: { actor: row.step.interactive_desktop_session === true },
  });
  out.interactive_session = state.sessionChecked;
  if (profile !== null && state.supported) {
    out.action_user_profile_id = profile;
    // host_cli's own preparer resolves it; the other types get the OS user here.
    if (actionType !== 'host_cli') return withRunAsUser(tx, out);
  }
  return out;
}
