import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type JobStep } from '@/api/contracts/jobs';
import { StatusCell } from './badges';
import { StepCells } from './rows';
import { JOB_STATUSES } from '@/api/contracts/vocabulary';

const step: JobStep = {
  id: 31,
  step_id: 7,
  group_order: 1,
  name: 'Beacon out',
  source: { id: 11, label: 'Actor A', value: '10.0.0.5', name: 'actor-a', zone: 'Lab' },
  destination: { id: 12, label: 'Actor B', value: '10.0.0.6', name: 'actor-b', zone: null },
  blocked: 0,
  detected: 1,
  alerted: 0,
  not_run: 0,
  action_count: 2,
  completed_count: 2,
  action_user_profile_name: 'svc_test',
  action_user_profile_friendly_name: 'Service account',
  actions: null,
};

describe('job list rows', () => {
  it('JOB-005 a step links its nodes to /topology/nodes/{id}/edit and its run-as user profile to /action_user_profiles', () => {
    render(
      <div role="grid">
        <div role="row">
          <StepCells row={{ kind: 'step', key: 'step:31', level: 1, parentKey: null, jobId: 5, step, expanded: false }} />
        </div>
      </div>,
    );
    expect(screen.getByRole('link', { name: 'Actor A' }).getAttribute('href')).toBe('/topology/nodes/11/edit');
    expect(screen.getByRole('link', { name: 'Actor B' }).getAttribute('href')).toBe('/topology/nodes/12/edit');
    expect(screen.getByRole('link', { name: 'Service account' }).getAttribute('href')).toBe('/action_user_profiles');
  });

  it("JOB-048 every job status shows its label with a colour bar, except 'reverting', which has none", () => {
    const { container } = render(
      <div>
        {JOB_STATUSES.map((s) => (
          <StatusCell key={s} status={s} progress={40} />
        ))}
      </div>,
    );
    for (const s of JOB_STATUSES) {
      const cell = container.querySelector<HTMLElement>(`[data-status="${s}"]`)!;
      const bar = [...cell.classList].find((c) => c.startsWith('border-l-') && c !== 'border-l-4');
      if (s === 'reverting') expect(bar, s).toBe('border-l-transparent');
      else expect(bar, s).toMatch(/^border-l-(?!transparent)/);
    }
    expect(screen.getByText('Reverting')).toBeTruthy();
  });
});
