import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DayOfWeekPicker } from './day-of-week-picker';
import { TOGGLE_ITEM_OUTSIDE_GROUP, ToggleItem } from './toggle-group';

describe('toggle group', () => {
  it("MON-156 a toggle item outside a toggle group throws 'ToggleItem must be used within a Provider'", () => {
    // React reports the error it rethrows; keep the test's output to the assertion.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => render(<ToggleItem value="M" label="Monday">M</ToggleItem>)).toThrow(TOGGLE_ITEM_OUTSIDE_GROUP);
      expect(TOGGLE_ITEM_OUTSIDE_GROUP).toBe('ToggleItem must be used within a Provider');
    } finally {
      quiet.mockRestore();
    }
  });

  it('MON-178 the day-of-week picker toggles days by click and by keyboard, in week order', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    function Harness() {
      const [days, setDays] = useState('F');
      return <DayOfWeekPicker value={days} onChange={(next) => (seen.push(next), setDays(next))} />;
    }
    render(<Harness />);
    const group = screen.getByRole('group', { name: 'Days of the week' });
    expect([...group.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Su', 'M', 'T', 'W', 'Th', 'F', 'S']);
    expect(screen.getByRole('button', { name: 'Friday' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Monday' }));
    screen.getByRole('button', { name: 'Friday' }).focus();
    await user.keyboard(' ');
    expect(seen).toEqual(['M,F', 'M']);
    expect(screen.getByRole('button', { name: 'Monday' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Friday' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('a disabled picker changes nothing', async () => {
    const onChange = vi.fn();
    render(<DayOfWeekPicker value="" onChange={onChange} disabled />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sunday' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});
