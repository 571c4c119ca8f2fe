import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Transcript } from './transcript';

describe('the script transcript', () => {
  it('heads its steps with Status, Line, Step, Time and Result or error, and lists each step under them', () => {
    render(<Transcript running={false} steps={[{ index: 0, line: 3, commandId: 'jobs.refresh', source: 'jobs.refresh()', status: 'failed', durationMs: 12.4, error: 'No jobs pane' }]} />);
    const table = screen.getByRole('table', { name: 'Transcript' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Status', 'Line', 'Step', 'Time', 'Result or error']);
    const cells = within(table).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['failed', '3', 'jobs.refresh()', '12 ms', 'No jobs pane']);
  });

  it('says how to get a transcript before the first run', () => {
    render(<Transcript running={false} steps={[]} />);
    expect(screen.getByText('Run the script to see its transcript here.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
