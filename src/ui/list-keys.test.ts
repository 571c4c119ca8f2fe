import { describe, expect, it } from 'vitest';
import { listKeyTarget } from './list-keys';

describe('list navigation keys', () => {
  it('arrows move one row, pages ten (or the page given), Ctrl+Home and Ctrl+End to the ends, all within the list', () => {
    expect(listKeyTarget({ key: 'ArrowDown' }, 3, 30)).toBe(4);
    expect(listKeyTarget({ key: 'ArrowUp' }, 3, 30)).toBe(2);
    expect(listKeyTarget({ key: 'ArrowUp' }, 0, 30)).toBe(0);
    expect(listKeyTarget({ key: 'ArrowDown' }, 29, 30)).toBe(29);
    expect(listKeyTarget({ key: 'PageDown' }, 3, 30)).toBe(13);
    expect(listKeyTarget({ key: 'PageDown' }, 25, 30)).toBe(29);
    expect(listKeyTarget({ key: 'PageUp' }, 3, 30, 5)).toBe(0);
    expect(listKeyTarget({ key: 'Home', ctrlKey: true }, 12, 30)).toBe(0);
    expect(listKeyTarget({ key: 'End', ctrlKey: true }, 12, 30)).toBe(29);
  });

  it('other keys, Home and End without Ctrl (the caret in a text box), and an empty list move nothing', () => {
    expect(listKeyTarget({ key: 'Enter' }, 3, 30)).toBeNull();
    expect(listKeyTarget({ key: 'Home' }, 3, 30)).toBeNull();
    expect(listKeyTarget({ key: 'End' }, 3, 30)).toBeNull();
    expect(listKeyTarget({ key: 'ArrowDown' }, 0, 0)).toBeNull();
  });
});
