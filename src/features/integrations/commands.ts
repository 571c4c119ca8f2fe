import * as yup from 'yup';
import { INTEGRATION_KINDS, INTEGRATION_TYPES, createIntegrationSchema, type CreateIntegrationRequest, type IntegrationRow } from '@/api/contracts/integrations';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { confirmDialog } from '@/ui/confirm-store';
import { flash } from '@/ui/toasts';
import { createIntegration, deleteIntegration, getIntegrationsMenu, integrationsQueryKey } from './api';
import { menuBlockedReason } from './menu-state';
import { integrationsStore } from './store';

const canManage = (ctx: CommandContext) => ctx.permissions.has('actors.manage');
const labelOf = (type: string) => INTEGRATION_KINDS.find((k) => k.type === type)?.label ?? type;
const PANE_URL = '/integrations';

/** The integrations to pick from (by name, kind and file). */
const integrationPicks: PickSource = {
  noun: 'integration',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getIntegrationsMenu()).data
      .filter((r) => !q || `${r.name} ${r.brand_name} ${r.source_path ?? ''}`.toLowerCase().includes(q))
      .slice(0, 20)
      .map((r) => ({ value: r.id, label: r.name, detail: r.source_path ?? r.brand_name }));
  },
  current: () => {
    const hit = integrationsStore.known.find((k) => k.id === integrationsStore.selectedId);
    return hit ? { value: hit.id, label: hit.name } : null;
  },
};

export const integrationsCommands: AnyCommand[] = [
  defineCommand<{ integration_type: string }, null>({
    id: 'integrations.add',
    title: 'Add Integration…',
    category: 'Integrations',
    keywords: ['integration', 'new', 'menu', 'security tool', 'suricata', 'eve', 'nftables', 'ulogd', 'webhook'],
    when: canManage,
    args: yup.object({
      integration_type: yup
        .string()
        .required('Choose the integration to add')
        .oneOf([...INTEGRATION_TYPES], `The integration must be one of ${INTEGRATION_TYPES.join(', ')}`)
        .label('Integration'),
    }) as yup.Schema<{ integration_type: string }>,
    // JOB-029: the menu is disabled while the integration service is not running or in error, or actions are disabled.
    run: async (args, ctx) => {
      const reason = menuBlockedReason(await getIntegrationsMenu());
      integrationsStore.blocked = reason;
      if (reason) throw new Error(reason);
      ctx.dock?.openUrl(PANE_URL);
      integrationsStore.adding = { type: args.integration_type, remote: false };
      return null;
    },
  }),
  defineCommand<CreateIntegrationRequest, IntegrationRow>({
    id: 'integrations.create',
    title: 'Create integration…',
    buttonLabel: 'Add Integration',
    category: 'Integrations',
    keywords: ['integration', 'security tool', 'sensor', 'nftables', 'ulogd', 'suricata', 'eve', 'webhook', 'firewall', 'events'],
    when: canManage,
    // The palette prompts for these; the kind is a pick list. The director checks the same schema.
    args: createIntegrationSchema as yup.Schema<CreateIntegrationRequest>,
    run: async (args, ctx) => {
      const row = await createIntegration(args);
      flash('notice', `Integration ${row.name} (${labelOf(row.type)}) created${row.source_path ? `; the director reads ${row.source_path}` : ''}.`);
      await ctx.queryClient?.invalidateQueries({ queryKey: integrationsQueryKey });
      integrationsStore.selectedId = row.id;
      return row;
    },
  }),
  defineCommand<{ id?: number | undefined }, boolean>({
    id: 'integrations.delete',
    title: 'Delete Integration',
    category: 'Integrations',
    keywords: ['integration', 'remove'],
    when: canManage,
    args: yup.object({
      id: yup.number().integer().positive().label('Integration (default: the selected one)').optional().meta(pickFrom(integrationPicks)),
    }) as yup.Schema<{ id?: number | undefined }>,
    enabled: (_ctx, args) => !!args?.id || integrationsStore.selectedId !== null,
    run: async (args, ctx) => {
      const id = args?.id ?? integrationsStore.selectedId;
      const rows = integrationsStore.known.some((k) => k.id === id) ? integrationsStore.known : (await getIntegrationsMenu()).data;
      const hit = rows.find((k) => k.id === id);
      if (!hit) throw new Error(id ? `There is no integration ${id}.` : 'Select an integration in the Integrations pane first, or pick one.');
      const ok = await confirmDialog(`Delete the integration ${hit.name}? Its stored events go with it; job results keep their copies.`, { confirmLabel: 'Delete Integration', cancelLabel: 'Keep Integration' });
      if (!ok) return false;
      await deleteIntegration(hit.id);
      flash('notice', `Integration ${hit.name} deleted.`);
      if (integrationsStore.selectedId === hit.id) integrationsStore.selectedId = null;
      await ctx.queryClient?.invalidateQueries({ queryKey: integrationsQueryKey });
      return true;
    },
  }),
];
