/**
 * What a monitor adds to the work of its runs (section 3 "Group configuration" and "Action
 * configuration"): the group's run-as user profile (action_user_profile, not for cloud and email,
 * MON-104), interactive desktop session, scan_interfaces, proxy_comm and use_ip_addresses, and the
 * action's runtime_* values, which replace the Action's own detail of the same name. The engine calls
 * this for every job action before its type's preparer, so host_cli's run-as preparer resolves the
 * profile the monitor chose; other types get run_as resolved here.
 */
import type { Db } from '../db/index';
import { withRunAsUser } from '../engine/run-as';

/** Types run-as does not apply to (MON-104). */
const NO_RUN_AS = new Set(['cloud', 'email']);
/** A runtime field whose Action detail has another name. */
const RUNTIME_ALIASES: Record<string, string> = { temporary_dns_server: 'dns_server', target_port: 'server_port' };

interface Settings {
  step: {
    action_user_profile?: number | null;
    interactive_desktop_session?: boolean;
    scan_interfaces?: string[];
    proxy_comm?: boolean;
    use_ip_addresses?: boolean;
  };
  action: { runtime?: Record<string, unknown> };
}

/** The job action's details with its monitor's settings; unchanged for a job action no monitor started. */
export async function withMonitorSettings(tx: Db, jobActionId: number, actionType: string, details: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [row] = await tx.query<Settings>(
    `select ms.config as step, ma.config as action
       from job_actions ja join monitor_actions ma on ma.id = ja.monitor_action_id join monitor_steps ms on ms.id = ma.monitor_step_id
      where ja.id = $1`,
    [jobActionId],
  );
  if (!row) return details;
  const out: Record<string, unknown> = { ...details };
  for (const [key, value] of Object.entries(row.action.runtime ?? {})) {
    if (value === '' || value === null || value === undefined) continue;
    const name = key.replace(/^runtime_/, '');
    out[RUNTIME_ALIASES[name] ?? name] = value;
  }
  out.scan_interfaces = row.step.scan_interfaces ?? [];
  out.proxy_comm = row.step.proxy_comm === true;
  out.use_ip_addresses = row.step.use_ip_addresses === true;
  out.interactive_session = row.step.interactive_desktop_session === true;
  const profile = row.step.action_user_profile ?? null;
  if (profile !== null && !NO_RUN_AS.has(actionType)) {
    out.action_user_profile_id = profile;
    // host_cli's own preparer resolves it; the other types get the OS user here.
    if (actionType !== 'host_cli') return withRunAsUser(tx, out);
  }
  return out;
}
