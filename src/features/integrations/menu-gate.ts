import type { CommandContext } from '@/commands/types';
import { getIntegrationsMenu } from './api';
import { menuBlockedReason } from './menu-state';
import { integrationsStore } from './store';

/** The Integrations pane, where every integration and threat-intel source is added and edited. */
export const INTEGRATIONS_PANE_URL = '/integrations';
/** Who may add, edit and delete integrations and threat-intel sources. */
export const canManageIntegrations = (ctx: CommandContext) => ctx.permissions.has('actors.manage');

/**
 * Opens the Integrations pane for an entry of the integrations menu, or fails with the reason the
 * menu is disabled (JOB-029: the integration service not running or in error, or actions disabled).
 */
export async function openFromMenu(ctx: CommandContext): Promise<void> {
  const reason = menuBlockedReason(await getIntegrationsMenu());
  integrationsStore.blocked = reason;
  if (reason) throw new Error(reason);
  ctx.dock?.openUrl(INTEGRATIONS_PANE_URL);
}
