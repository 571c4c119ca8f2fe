import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RunStatusCell } from './ui';

describe('monitor run status', () => {
  it('MON-176 a run in progress shows its progress, the fill moving with a 350 ms transition; an ended run shows none', () => {
    const { rerender } = render(<RunStatusCell run={{ status: 'running', progress: 40 }} />);
    const bar = screen.getByRole('progressbar', { name: 'Run progress 40%' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    const fill = bar.firstElementChild as HTMLElement;
    expect(fill.style.width).toBe('40%');
    expect(fill.style.transition).toBe('width 350ms ease-out');
    rerender(<RunStatusCell run={{ status: 'running', progress: 75 }} />);
    expect((screen.getByRole('progressbar').firstElementChild as HTMLElement).style.width).toBe('75%');
    rerender(<RunStatusCell run={{ status: 'completed', progress: 100 }} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Completed')).toBeTruthy();
  });
});
