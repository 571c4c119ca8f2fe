import * as yup from 'yup';
import { INTEGRATION_KINDS, createIntegrationSchema, type CreateIntegrationRequest, type IntegrationRow } from '@/api/contracts/integrations';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { createIntegration, integrationsQueryKey } from './api';

const canManage = (ctx: CommandContext) => ctx.permissions.has('actors.manage');
const labelOf = (type: string) => INTEGRATION_KINDS.find((k) => k.type === type)?.label ?? type;

export const integrationsCommands: AnyCommand[] = [
  defineCommand<CreateIntegrationRequest, IntegrationRow>({
    id: 'integrations.create',
    title: 'Create integration…',
    category: 'Integrations',
    keywords: ['integration', 'security tool', 'sensor', 'nftables', 'ulogd', 'suricata', 'eve', 'webhook', 'firewall', 'events'],
    when: canManage,
    // The palette prompts for these; the kind is a pick list. The director checks the same schema.
    args: createIntegrationSchema as yup.Schema<CreateIntegrationRequest>,
    run: async (args, ctx) => {
      const row = await createIntegration(args);
      flash('notice', `Integration ${row.name} (${labelOf(row.type)}) created${row.source_path ? `; the director reads ${row.source_path}` : ''}.`);
      await ctx.queryClient?.invalidateQueries({ queryKey: integrationsQueryKey });
      return row;
    },
  }),
];
