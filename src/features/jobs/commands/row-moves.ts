import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { setJobOpen, setStepOpen } from '@/features/jobs/expanded';
import { activeRow, moveActive, rowJobId, toggleSelectAll, toggleSelected } from '@/features/jobs/pane-state';
import { inMenu } from '@/commands/menus';
import { PANES, inJobsPane, inList, listPane, paneOf, selectionBlocked } from './context';

/** Moving through the rows, expanding them and selecting jobs. */
export const rowCommands: AnyCommand[] = [
  defineCommand({ id: 'jobs.nextRow', title: 'Next Row', category: 'Jobs', keywords: ['down', 'move'], hotkey: 'j', hotkeyContext: PANES, when: inJobsPane, run: (_a, ctx) => void (paneOf(ctx) && moveActive(paneOf(ctx)!, 1)) }),
  defineCommand({ id: 'jobs.previousRow', title: 'Previous Row', category: 'Jobs', keywords: ['up', 'move'], hotkey: 'k', hotkeyContext: PANES, when: inJobsPane, run: (_a, ctx) => void (paneOf(ctx) && moveActive(paneOf(ctx)!, -1)) }),
  defineCommand({
    id: 'jobs.expand',
    title: 'Expand Row',
    category: 'Jobs',
    keywords: ['open', 'step', 'group', 'actions'],
    hotkey: 'l',
    hotkeyContext: PANES,
    when: inJobsPane,
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      const r = s ? activeRow(s) : null;
      if (r?.kind === 'job') setJobOpen(r.jobId, true);
      else if (r?.kind === 'step') setStepOpen(r.jobId, r.step.id, true);
    },
  }),
  defineCommand({
    id: 'jobs.collapse',
    title: 'Collapse Row',
    category: 'Jobs',
    keywords: ['close', 'step', 'group'],
    hotkey: 'h',
    hotkeyContext: PANES,
    when: inJobsPane,
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      const r = s ? activeRow(s) : null;
      if (!s || !r) return;
      if (r.kind === 'job' && r.expanded) setJobOpen(r.jobId, false);
      else if (r.kind === 'step' && r.expanded) setStepOpen(r.jobId, r.step.id, false);
      else if (r.parentKey) s.activeKey = r.parentKey;
    },
  }),
  defineCommand({
    id: 'jobs.toggleSelect',
    title: 'Select Job',
    category: 'Jobs',
    keywords: ['check', 'mark', 'selection'],
    hotkey: 'x',
    hotkeyContext: 'jobs',
    when: inList,
    run: (_a, ctx) => {
      const s = listPane(ctx);
      const id = rowJobId(activeRow(s));
      if (id !== null) toggleSelected(s, id);
      return [...s.filter.selected_jobs];
    },
  }),
  defineCommand({
    id: 'jobs.selectAll',
    title: 'Select All Jobs on the Page',
    category: 'Jobs',
    keywords: ['check', 'selection', 'all'],
    hotkey: 'shift+x',
    hotkeyContext: 'jobs',
    when: inList,
    run: (_a, ctx) => {
      const s = listPane(ctx);
      toggleSelectAll(s);
      return [...s.filter.selected_jobs];
    },
  }),
  defineCommand({
    id: 'jobs.clearSelection',
    title: 'Clear Job Selection',
    category: 'Jobs',
    keywords: ['unselect', 'none'],
    menus: [inMenu('toolbar/jobs-selection', { group: '2_clear', title: 'Clear Selection', blockedReason: selectionBlocked })],
    when: inList,
    run: (_a, ctx) => {
      listPane(ctx).filter.selected_jobs = [];
    },
  }),
];
