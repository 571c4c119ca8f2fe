import * as yup from 'yup';
import { STATUS_TABS, type StatusTab } from '@/api/contracts/operational-status';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { statusQueryKey } from './api';

export const operationalStatusCommands: AnyCommand[] = [
  defineCommand<{ tab?: StatusTab | undefined }, null>({
    id: 'operationalStatus.show',
    title: 'Show Operational Status',
    category: 'Status',
    keywords: ['operational', 'status', 'health', 'background processes', 'actors', 'last contact', 'integrations', 'content service', 'scheduler'],
    needsWorkbench: true,
    when: (ctx) => ctx.user !== null,
    args: yup.object({ tab: yup.string<StatusTab>().oneOf([...STATUS_TABS, undefined]).label('Tab').optional() }) as yup.Schema<{ tab?: StatusTab | undefined }>,
    run: async (args, ctx) => {
      const tab = args?.tab ? STATUS_TABS.indexOf(args.tab) : 0;
      ctx.dock?.openUrl(`/operational_status?tabIndex=${tab}`);
      await ctx.queryClient?.invalidateQueries({ queryKey: statusQueryKey });
      return null;
    },
  }),
];
