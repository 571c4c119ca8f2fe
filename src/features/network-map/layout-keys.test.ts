import { describe, expect, it } from 'vitest';
import { layoutKeyBuffer } from './layout-keys';
import { helpHref } from './help-link';

describe('layout shortcuts', () => {
  it('JOB-025 l then a digit within 1000 ms picks the mode; later, other keys or other digits do not', () => {
    let t = 0;
    const feed = layoutKeyBuffer(() => t);
    expect(feed('l')).toBeNull();
    t = 999;
    expect(feed('2')).toBe('Organic');
    expect(feed('3')).toBeNull();
    feed('L');
    t = 2000;
    expect(feed('6')).toBeNull();
    feed('l');
    expect(feed('x')).toBeNull();
    expect(feed('1')).toBeNull();
    feed('l');
    expect(feed('7')).toBeNull();
    feed('l');
    expect(feed('6')).toBe('Tweak');
  });

  it('JOB-006 JOB-026 help links: http links as given, others under /help/', () => {
    expect(helpHref('https://docs.example.com/fw')).toBe('https://docs.example.com/fw');
    expect(helpHref('device-firewall.html')).toBe('/help/device-firewall.html');
  });
});
