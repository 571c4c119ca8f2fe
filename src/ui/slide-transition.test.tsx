import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIBRARY_LIMITS } from '@/api/contracts/library';
import { SlideTransition } from './slide-transition';

describe('slide transition wrapper', () => {
  it('MON-032 MON-177 the content list item shown slides in over 600 ms, again each time another item is shown', () => {
    expect(LIBRARY_LIMITS.slideTransitionMs).toBe(600);
    const { rerender } = render(
      <SlideTransition slideKey="A1">
        <p>Item A1</p>
      </SlideTransition>,
    );
    const first = screen.getByText('Item A1').parentElement!;
    expect(first.className).toContain('vigil-slide-in');
    expect(first.style.animationDuration).toBe('600ms');
    // The same item re-rendered keeps its element (no second slide)…
    rerender(
      <SlideTransition slideKey="A1">
        <p>Item A1</p>
      </SlideTransition>,
    );
    expect(screen.getByText('Item A1').parentElement).toBe(first);
    // …another item gets a new element, so the animation runs again.
    rerender(
      <SlideTransition slideKey="B2">
        <p>Item B2</p>
      </SlideTransition>,
    );
    const second = screen.getByText('Item B2').parentElement!;
    expect(second).not.toBe(first);
    expect(second.style.animationDuration).toBe('600ms');
  });
});
