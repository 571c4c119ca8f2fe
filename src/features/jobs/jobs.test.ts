// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { actionResult, canCancelJob, canDeleteJob, canPublishJob, csvFilename, deleteConfirmText, formatFilterRange, parseFilterRange, type JobAction } from '@/api/contracts/jobs';
import { permissionsOf } from '@/api/contracts/permissions';
import { datePresetRange } from './date-presets';
import { rangeWithStart } from './page-filters';
import { allListedSelected, applyPanelFilter, goToPage, jobsPaneState, resetPaneStates, supplyPanelFilter, targetJobs, toggleSelectAll, toggleSelected } from './pane-state';
import { cancelAllowed, cloneBlockedReason, deleteAllowed, editActionUrl, editBlockedReason, maySeeEvents, publishAllowed, simulationUrl, summaryUrl } from './predicates';
import { defaultFilter, filterStorageKey, parseStoredFilter, toListRequest } from './stored-filter';
import type { FilterNode } from '@/api/contracts/filters';
import { JOB_STATUSES } from '@/api/contracts/vocabulary';

const action = (over: Partial<JobAction>): Pick<JobAction, 'status' | 'alerted' | 'blocked' | 'events'> => ({ status: 'ran', alerted: false, blocked: null, events: 0, ...over });

describe('action result display (section 4)', () => {
  it.each([
    ['JOB-050 ran and alerted', action({ alerted: true, blocked: false, events: 2 }), 'Alerted', 'pass'],
    ['JOB-051 ran and blocked', action({ blocked: true }), 'Blocked', 'pass'],
    ['JOB-051 ran and not blocked', action({ blocked: false, events: 3 }), 'Not Blocked', 'fail'],
    ['JOB-052 ran with events', action({ events: 4 }), 'Events (4)', 'pass'],
    ['JOB-052 ran without events', action({ events: 0 }), 'No Events', 'fail'],
    ['JOB-053 not run', action({ status: 'not run' }), 'Not Run', 'neutral'],
    ['JOB-053 incompatible', action({ status: 'incompatible' }), 'Not Run', 'neutral'],
    ['JOB-054 errored', action({ status: 'errored' }), 'Errored', 'neutral'],
    ['JOB-054 waiting', action({ status: 'waiting' }), 'Waiting', 'neutral'],
    ['JOB-054 reverting', action({ status: 'reverting' }), 'Reverting', 'neutral'],
    ['JOB-054 running', action({ status: 'running', alerted: true }), 'Running', 'neutral'],
  ] as const)('%s shows %s', (_what, a, text, tone) => {
    expect(actionResult(a)).toEqual({ text, tone });
  });
});

describe('job states (JOB-047, JOB-049)', () => {
  it('cancel only while sleeping, pending, waiting, preparing or running; delete and publish only when finished', () => {
    const cancellable = JOB_STATUSES.filter(canCancelJob);
    expect(cancellable).toEqual(['sleeping', 'pending', 'waiting', 'preparing', 'running']);
    expect(JOB_STATUSES.filter(canDeleteJob)).toEqual(['errored', 'cancelled', 'completed']);
    expect(JOB_STATUSES.filter(canPublishJob)).toEqual(['errored', 'cancelled', 'completed']);
    expect(canCancelJob('reverting') || canDeleteJob('reverting')).toBe(false);
  });

  it('JOB-103 the delete confirmation counts the selected results', () => {
    expect(deleteConfirmText(3)).toBe('Are you sure you want to delete 3 selected job result(s)? This cannot be undone.');
  });
});

describe('permissions (section 6)', () => {
  const viewer = new Set(permissionsOf('viewer'));
  const operator = new Set(permissionsOf('operator'));
  const approver = new Set(permissionsOf('approver'));
  it('JOB-073 JOB-074 JOB-075 JOB-077 gate publish, delete, cancel and events by permission and job state', () => {
    expect([publishAllowed(viewer, 'completed'), deleteAllowed(viewer, 'completed'), cancelAllowed(viewer, 'running'), maySeeEvents(viewer)]).toEqual([false, false, false, false]);
    expect([publishAllowed(operator, 'completed'), deleteAllowed(operator, 'completed'), cancelAllowed(operator, 'running'), maySeeEvents(operator)]).toEqual([true, false, true, true]);
    expect([deleteAllowed(approver, 'completed'), deleteAllowed(approver, 'running'), publishAllowed(approver, 'running'), cancelAllowed(approver, 'completed')]).toEqual([true, false, false, false]);
  });

  it('JOB-078 Edit Action is disabled for disabled actions and A1 vendor content; Clone for disabled ones; both disabled, with the reason, without the create permission', () => {
    const a = { disabled: false, sim_action_vid: 'A250-100', sim_action_id: 7, action_type: 'dns' };
    expect(editBlockedReason(operator, a)).toBeNull();
    expect(editBlockedReason(operator, { ...a, sim_action_vid: 'A104-404' })).toBe('Vendor content (VID starting with A1) cannot be edited.');
    expect(editBlockedReason(operator, { ...a, disabled: true })).toBe('This action is disabled.');
    const vendor = { ...a, sim_action_vid: 'A104-404' };
    expect(cloneBlockedReason(operator, vendor)).toBeNull();
    expect(cloneBlockedReason(operator, { ...a, disabled: true })).toBe('This action is disabled.');
    expect(editBlockedReason(viewer, a)).toBe('Your role does not allow editing Actions.');
    expect(cloneBlockedReason(viewer, a)).toBe('Your role does not allow cloning Actions.');
  });

  it('JOB-002 JOB-004 builds the spec URLs', () => {
    expect(editActionUrl({ sim_action_id: 7, action_type: 'cloud' })).toBe('/manage_sims/actions/cloud_action/7/edit');
    expect(editActionUrl({ sim_action_id: 7, action_type: 'dns' })).toBe('/manage_sims/actions/7/edit');
    expect(summaryUrl([3, 4])).toBe('/reports/summary?job_ids[]=3&job_ids[]=4');
    expect(simulationUrl({ simulation: { vid: 'S000-123', sim_type: 'eval' }, action: null })).toBe('/simulation/S000-123?sim_type=eval');
    expect(simulationUrl({ simulation: null, action: { vid: 'A250-100' } })).toBe('/manage_sims/action/A250-100');
  });
});

describe('CSV file names (MON-115, MON-148)', () => {
  it.each([
    ['', 'jobs.csv'],
    ['  ', 'jobs.csv'],
    ['report', 'report.csv'],
    ['report.CSV', 'report.csv'],
    ['report.txt', 'report.txt.csv'],
    ['a/b:c', 'a_b_c.csv'],
    ['dots...', 'dots.csv'],
  ])('"%s" is saved as %s', (name, expected) => {
    expect(csvFilename(name, 'jobs')).toBe(expected);
  });
});

describe('date range (JOB-009)', () => {
  const now = new Date(2026, 4, 20, 15, 42, 30);
  it.each([
    ['today', new Date(2026, 4, 20, 0, 0), now],
    ['yesterday', new Date(2026, 4, 19, 0, 0), new Date(2026, 4, 19, 23, 59, 59, 999)],
    ['last_7_days', new Date(2026, 4, 14, 0, 0), now],
    ['last_30_days', new Date(2026, 3, 21, 0, 0), now],
    ['this_month', new Date(2026, 4, 1, 0, 0), now],
    ['last_month', new Date(2026, 3, 1, 0, 0), new Date(2026, 3, 30, 23, 59, 59, 999)],
  ] as const)('%s runs from its first minute and never ends after now', (preset, start, end) => {
    const r = datePresetRange(preset, now);
    expect(r.start.getTime()).toBe(start.getTime());
    expect(r.end.getTime()).toBe(end.getTime());
    expect(r.end.getTime()).toBeLessThanOrEqual(now.getTime());
  });

  it('round-trips through the wire format and refuses malformed or reversed ranges', () => {
    const a = new Date('2026-05-01T00:00:00.000Z');
    const b = new Date('2026-05-02T00:00:00.000Z');
    expect(parseFilterRange(formatFilterRange(a, b))).toEqual({ start: a, end: b });
    expect(parseFilterRange(formatFilterRange(a, null))).toEqual({ start: a, end: null });
    expect(parseFilterRange('yesterday')).toMatch(/two ISO 8601 times/);
    expect(parseFilterRange(formatFilterRange(b, a))).toBe('filterRange starts after it ends');
  });
});

describe('the stored job-list filter (JOB-033)', () => {
  it('reads what it wrote and falls back field by field on anything else', () => {
    const f = { ...defaultFilter(), page_number: 3, page_size: 30, sort: { by: 'job_name' as const, direction: 'asc' as const }, filter_value: 'dns', selected_jobs: [4, 5], structured_filter: { events: 'present' as const, rules: [], page: {} } };
    expect(parseStoredFilter(JSON.stringify(f))).toEqual(f);
    expect(parseStoredFilter('{not json')).toEqual(defaultFilter());
    expect(parseStoredFilter(JSON.stringify({ page_size: 25, sort: { by: 'password', direction: 'up' }, selected_jobs: [1, 'x', -2], structured_filter: { events: 'many' } }))).toEqual(
      { ...defaultFilter(), selected_jobs: [1] },
    );
  });

  it('JOB-062 JOB-115 is one-based in the UI and zero-based on the wire; defaults are page 1, size 10, job_id descending', () => {
    const r = toListRequest({ ...defaultFilter(), page_number: 4 }, 'A123-456', { after: 'c' });
    expect(r).toMatchObject({ page: 3, size: 10, sortCol: 'job_id', sortDir: 'desc', vid: 'A123-456', after: 'c' });
  });
});

describe('selection and paging of a jobs pane', () => {
  it('JOB-014 select-all is true only when every listed job is selected, and toggles the listed jobs only', () => {
    resetPaneStates();
    const s = jobsPaneState('', 1);
    s.filter.selected_jobs = [99];
    s.pageJobs = [1, 2, 3].map((id) => ({ id }) as never);
    expect(allListedSelected(s.pageJobs, s.filter.selected_jobs)).toBe(false);
    toggleSelected(s, 1);
    toggleSelected(s, 2);
    expect(allListedSelected(s.pageJobs, s.filter.selected_jobs)).toBe(false);
    toggleSelectAll(s);
    expect([...s.filter.selected_jobs].sort((a, b) => a - b)).toEqual([1, 2, 3, 99]);
    expect(allListedSelected(s.pageJobs, s.filter.selected_jobs)).toBe(true);
    toggleSelectAll(s);
    expect([...s.filter.selected_jobs]).toEqual([99]);
    expect(allListedSelected([], [])).toBe(false);
    expect(targetJobs(s)).toEqual([99]);
  });

  it('the next and previous pages go by keyset cursor, other pages by number', () => {
    resetPaneStates();
    const s = jobsPaneState('', 2);
    s.pageCount = 10;
    s.pageStart = 'first';
    s.pageEnd = 'last';
    goToPage(s, 2);
    expect([s.filter.page_number, s.cursor]).toEqual([2, { after: 'last' }]);
    goToPage(s, 1);
    expect([s.filter.page_number, s.cursor]).toEqual([1, null]);
    s.filter.page_number = 5;
    goToPage(s, 4);
    expect(s.cursor).toEqual({ before: 'first' });
    goToPage(s, 10);
    expect([s.filter.page_number, s.cursor]).toEqual([10, null]);
    goToPage(s, 50);
    expect(s.filter.page_number).toBe(10);
  });
});

describe('the filter panel and browser storage (JOB-015)', () => {
  const rule = (value: string): FilterNode[] => [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator: 'contains', value }] }] }];
  const stored = () => parseStoredFilter(localStorage.getItem(filterStorageKey(7, '')));
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('JOB-015 the applied page filter persists to local storage unless a structured filter is supplied', async () => {
    localStorage.clear();
    resetPaneStates();
    const s = jobsPaneState('', 7);
    applyPanelFilter(s, { rules: rule('dns'), page: { job_name: 'smb' } });
    await flush();
    expect(stored().structured_filter).toEqual({ events: '', rules: rule('dns'), page: { job_name: 'smb' } });

    // A saved filter is applied: the list uses it, storage keeps what the user applied last.
    supplyPanelFilter(s, { rules: rule('http'), page: {} });
    await flush();
    expect(s.filter.structured_filter.rules).toEqual(rule('http'));
    expect(s.panelOpen).toBe(true);
    expect(stored().structured_filter).toEqual({ events: '', rules: rule('dns'), page: { job_name: 'smb' } });
    // Other parts of the stored filter still persist meanwhile.
    s.filter.structured_filter.events = 'present';
    s.filter.page_size = 30;
    await flush();
    expect(stored()).toMatchObject({ page_size: 30, structured_filter: { events: 'present', rules: rule('dns'), page: { job_name: 'smb' } } });

    // Update Filter on the supplied filter makes it the user's own again: it persists.
    applyPanelFilter(s, { rules: rule('http'), page: {} });
    await flush();
    expect(stored().structured_filter).toEqual({ events: 'present', rules: rule('http'), page: {} });
  });
});

describe('the page filter day (JOB-082)', () => {
  it.each([
    [120, '', '2026-02-28T22:00:00.000Z,'],
    [-300, '', '2026-03-01T05:00:00.000Z,'],
    [0, '2026-03-04T00:00:00.000Z,', '2026-03-04T00:00:00.000Z,'],
    [0, '2026-02-01T00:00:00.000Z,2026-03-10T00:00:00.000Z', '2026-03-01T00:00:00.000Z,2026-03-10T00:00:00.000Z'],
    [60, '2026-02-01T00:00:00.000Z,2026-02-10T00:00:00.000Z', '2026-02-28T23:00:00.000Z,'],
  ])('JOB-082 with timezone_offset %i, range %j starts at the midnight of the filter source: %j', (offset, range, want) => {
    expect(rangeWithStart(range, { started_from: '2026-03-01' }, offset)).toBe(want);
  });

  it('without the offset the day starts at local midnight; without a day the range is unchanged', () => {
    expect(rangeWithStart('', { started_from: '2026-03-01' })).toBe(`${new Date('2026-03-01T00:00:00').toISOString()},`);
    expect(rangeWithStart('a,b', {}, 60)).toBe('a,b');
    expect(rangeWithStart('a,b', { started_from: 'March' }, 60)).toBe('a,b');
  });
});
