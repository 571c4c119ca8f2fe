import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { HELP_PAGES, slugOf } from './help-pages';

/** One palette command per help page: "Help: Endpoint actors" opens /help/actor-endpoint.html. */
export const helpCommands: AnyCommand[] = HELP_PAGES.map((page) =>
  defineCommand({
    id: `help.${slugOf(page.file)}`,
    title: `Help: ${page.title}`,
    category: 'Help',
    keywords: ['help', 'documentation', 'guide', page.file],
    needsWorkbench: true,
    run: (_args, ctx) => {
      ctx.dock?.openUrl(`/help/${page.file}`);
      return null;
    },
  }),
);
