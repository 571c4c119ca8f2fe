import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { EVENTS_FILTERS, PAGE_SIZES, SORT_COLUMNS, formatFilterRange, type EventsFilter, type SortColumn, type SortDirection } from '@/api/contracts/jobs';
import { datePresetRange, DATE_PRESETS, type DatePreset } from '@/features/jobs/date-presets';
import { changeFilter } from '@/features/jobs/pane-state';
import { inList, listPane } from './context';

/** The list's sort, page size, text, events and date filters. */

export const listFilterCommands: AnyCommand[] = [
  defineCommand<{ by: SortColumn; direction?: SortDirection }>({
    id: 'jobs.sort',
    title: 'Sort Jobs',
    category: 'Jobs',
    keywords: ['order', 'column'],
    when: inList,
    args: yup.object({
      by: yup.string<SortColumn>().oneOf([...SORT_COLUMNS]).required('by is required').label('Sort by'),
      direction: yup.string<SortDirection>().oneOf(['asc', 'desc']).label('Direction'),
    }) as yup.Schema<{ by: SortColumn; direction?: SortDirection }>,
    run: ({ by, direction }, ctx) =>
      changeFilter(listPane(ctx), (f) => {
        f.sort = { by, direction: direction ?? (f.sort.by === by && f.sort.direction === 'desc' ? 'asc' : 'desc') };
      }),
  }),
  defineCommand<{ size: number }>({
    id: 'jobs.pageSize',
    title: 'Jobs per Page',
    category: 'Jobs',
    when: inList,
    args: yup.object({ size: yup.number().oneOf([...PAGE_SIZES]).required('size is required').label('Rows per page (10, 20 or 30)') }) as yup.Schema<{ size: number }>,
    run: ({ size }, ctx) => changeFilter(listPane(ctx), (f) => void (f.page_size = size)),
  }),
  defineCommand<{ text?: string }>({
    id: 'jobs.filterText',
    title: 'Filter Jobs by Text',
    category: 'Jobs',
    keywords: ['search', 'find'],
    when: inList,
    args: yup.object({ text: yup.string().max(200).label('Text') }),
    run: ({ text }, ctx) => changeFilter(listPane(ctx), (f) => void (f.filter_value = text ?? '')),
  }),
  defineCommand<{ events?: EventsFilter | '' }>({
    id: 'jobs.eventsFilter',
    title: 'Filter Jobs by Events',
    category: 'Jobs',
    keywords: ['present', 'suspicious', 'none', 'detected'],
    when: inList,
    args: yup.object({ events: yup.string<EventsFilter | ''>().oneOf(['', ...EVENTS_FILTERS]).label('Events (present, suspicious, none)') }) as yup.Schema<{ events?: EventsFilter | '' }>,
    run: ({ events }, ctx) => changeFilter(listPane(ctx), (f) => void (f.structured_filter.events = events ?? '')),
  }),
  defineCommand<{ preset?: DatePreset }>({
    id: 'jobs.dateRange',
    title: 'Filter Jobs by Date',
    category: 'Jobs',
    keywords: ['today', 'yesterday', 'last 7 days', 'last 30 days', 'this month', 'last month', 'time started'],
    when: inList,
    args: yup.object({ preset: yup.string<DatePreset>().oneOf([...DATE_PRESETS]).label('Range') }) as yup.Schema<{ preset?: DatePreset }>,
    run: ({ preset }, ctx) =>
      changeFilter(listPane(ctx), (f) => {
        const r = preset ? datePresetRange(preset, new Date()) : null;
        f.filter_range = r ? formatFilterRange(r.start, r.end) : '';
      }),
  }),
];
