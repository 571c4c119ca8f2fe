/**
 * The integrations menu's rules (jobs-simulations-network-map.md section 2 "Integrations menu" and
 * section 8, JOB-029, JOB-107): disabled when the integration service is not running, is in error, or
 * the deployment disables actions; SaaS hides remote-only integrations; a service error is told in a
 * toast 'Integration Service Error' for 10 s with the message (its user_msg when the message is JSON)
 * or 'An error ocurred loading the integration service.'.
 */
import type { IntegrationTemplate, IntegrationsAnswer } from '@/api/contracts/integrations';

export const SERVICE_ERROR_TITLE = 'Integration Service Error';
export const SERVICE_ERROR_FALLBACK = 'An error ocurred loading the integration service.';
export const SERVICE_ERROR_TOAST_MS = 10000;

export const NOT_RUNNING = 'The integration service is not running.';
export const IN_ERROR = 'The integration service is in error.';
export const ACTIONS_DISABLED = 'This deployment disables actions.';

/** The message of a service error: user_msg when it is JSON carrying one, else the text, else the fallback. */
export function serviceErrorMessage(message: string | null | undefined): string {
  const text = (message ?? '').trim();
  if (!text) return SERVICE_ERROR_FALLBACK;
  try {
    const parsed: unknown = JSON.parse(text);
    const userMsg = parsed && typeof parsed === 'object' ? (parsed as { user_msg?: unknown }).user_msg : undefined;
    if (typeof userMsg === 'string' && userMsg.trim()) return userMsg.trim();
  } catch {
    // plain text
  }
  return text;
}

/** Why the menu is disabled, or null. */
export function menuBlockedReason(answer: Pick<IntegrationsAnswer, 'service' | 'actions_disabled'>): string | null {
  if (answer.actions_disabled) return ACTIONS_DISABLED;
  if (answer.service?.status === 'error') return IN_ERROR;
  if (answer.service?.status !== 'running') return NOT_RUNNING;
  return null;
}

/** The integrations the plain list offers: remote-only ones hidden on SaaS. */
export function menuItems(answer: Pick<IntegrationsAnswer, 'available' | 'saas'>): IntegrationTemplate[] {
  const all = answer.available ?? [];
  return answer.saas ? all.filter((t) => !t.versions.length || !t.versions.every((v) => v.remote_only)) : all;
}

/** The version flags shown beside a name: Beta, Deprecated, Remote only. */
export function versionFlags(t: IntegrationTemplate): string[] {
  const v = t.versions[t.versions.length - 1];
  if (!v) return [];
  return [v.beta && 'Beta', v.deprecated && 'Deprecated', v.remote_only && 'Remote only'].filter((x): x is string => !!x);
}
