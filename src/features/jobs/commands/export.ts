import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { CSV_ALL_EVENTS, CSV_DELIVERIES, CSV_QUOTES, CSV_SEPARATORS } from '@/api/contracts/jobs';
import { dialogs } from '@/features/jobs/dialogs';
import { inMenu } from '@/commands/menus';
import { scriptOnly } from '@/commands/pick';
import { PANES, inJobsPane, jobIdList, paneOf } from './context';
import { runExport, type ExportArgs } from './export-csv';

/** Export Jobs to CSV: the dialog when run interactively, the file at once with arguments (scripts). */

export const exportCommands: AnyCommand[] = [
  defineCommand<ExportArgs>({
    id: 'jobs.export',
    title: 'Export Jobs to CSV',
    category: 'Jobs',
    keywords: ['csv', 'download', 'spreadsheet', 'job action report'],
    hotkey: 'e',
    hotkeyContext: PANES,
    menus: [inMenu('toolbar/jobs-export', { order: 1, title: 'Export to CSV…' })],
    // Exports the focused Jobs pane's jobs, or what a script names (job_ids=, filter=): hidden elsewhere (the Start pane).
    when: (ctx, a) => !ctx.dock || inJobsPane(ctx) || Object.values(a ?? {}).some((v) => v !== undefined),
    args: yup.object({
      // The palette opens the export dialog on the focused pane's jobs; a script names them.
      job_ids: jobIdList.meta(scriptOnly()),
      filter: yup.string().max(500).label('Filter text (exports every matching job; status:completed, ran_by:…, published:yes narrow it)'),
      separator: yup.string<keyof typeof CSV_SEPARATORS>().oneOf(Object.keys(CSV_SEPARATORS) as (keyof typeof CSV_SEPARATORS)[]).label('Separator'),
      delivery: yup.string<'download' | 'popup'>().oneOf([...CSV_DELIVERIES]).label('Delivery'),
      all_events: yup.string<'visible' | 'all'>().oneOf([...CSV_ALL_EVENTS]).label('Rows'),
      regex: yup.string<'double' | 'single'>().oneOf([...CSV_QUOTES]).label('Quote replacement'),
      filename: yup.string().max(200).label('File name'),
      job_action_report: yup.boolean().label('Job Action Report'),
      format: yup.string<'csv'>().oneOf(['csv'], 'format must be csv (the only export format)').label('Format (csv)'),
    }) as yup.Schema<ExportArgs>,
    run: async (a, ctx) => {
      const s = paneOf(ctx);
      const given = Object.values(a ?? {}).some((v) => v !== undefined);
      if (!given && ctx.dock && s) {
        dialogs.export = { paneKey: s.key, jobActionReport: false };
        return { dialog: true };
      }
      return runExport(s, {
        job_ids: a?.job_ids,
        filter: a?.filter,
        separator: a?.separator ?? 'comma',
        delivery: a?.delivery ?? 'download',
        all_events: a?.all_events ?? 'visible',
        regex: a?.regex ?? 'double',
        filename: a?.filename ?? '',
        job_action_report: a?.job_action_report ?? false,
      });
    },
  }),
  defineCommand({
    id: 'jobs.exportActionReport',
    title: 'Export Job Action Report',
    category: 'Jobs',
    keywords: ['csv', 'download', 'job actions'],
    menus: [inMenu('toolbar/jobs-export', { order: 2, title: 'Export Job Action Report…' })],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      if (!s) throw new Error('Focus a Jobs pane first.');
      // The export dialog with the Job Action Report box ticked; scripts use jobs.export job_action_report=true.
      dialogs.export = { paneKey: s.key, jobActionReport: true };
      return { dialog: true };
    },
  }),
];
