// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusAfterFrame } from './focus-after-frame';

function list(): { root: { current: HTMLElement }; rows: HTMLElement[]; search: HTMLInputElement } {
  document.body.innerHTML = '<ol><li tabindex="0" data-i="0">One</li><li tabindex="0" data-i="1">Two</li></ol><input aria-label="Search">';
  const ol = document.querySelector('ol')!;
  return { root: { current: ol }, rows: [...ol.querySelectorAll<HTMLElement>('li')], search: document.querySelector('input')! };
}

describe('focus after a frame', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame'] }));
  afterEach(() => vi.useRealTimers());

  it('focuses the row once the frame is drawn when the focused row was removed (the focus fell to the page)', () => {
    const { root, rows } = list();
    rows[0]!.focus();
    rows[0]!.remove();
    focusAfterFrame(root, '[data-i="1"]');
    expect(document.activeElement).toBe(document.body);
    vi.advanceTimersToNextFrame();
    expect(document.activeElement).toBe(rows[1]);
  });

  it('follows a row that moved while the focus stays in the list', () => {
    const { root, rows } = list();
    rows[0]!.focus();
    focusAfterFrame(root, '[data-i="1"]');
    vi.advanceTimersToNextFrame();
    expect(document.activeElement).toBe(rows[1]);
  });

  it('leaves the focus where the user put it before a late frame (keys typed there stay there)', () => {
    const { root, rows, search } = list();
    rows[0]!.focus();
    rows[0]!.remove();
    focusAfterFrame(root, '[data-i="1"]');
    search.focus();
    vi.advanceTimersToNextFrame();
    expect(document.activeElement).toBe(search);
  });
});
