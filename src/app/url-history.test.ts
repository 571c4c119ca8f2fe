// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { browserUrlHistory } from './url-history';

describe('the address bar through the History API (the URL codec without a router)', () => {
  it('push and replace write the URL and tell subscribers; back and forward (popstate) tell them too', () => {
    const history = browserUrlHistory();
    const heard: string[] = [];
    const stop = history.subscribe(() => heard.push(history.current()));
    history.push('/jobs?id=4');
    expect(window.location.pathname + window.location.search).toBe('/jobs?id=4');
    history.replace('/actions?id=2');
    expect(history.current()).toBe('/actions?id=2');
    window.history.replaceState(null, '', '/start');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(heard).toEqual(['/jobs?id=4', '/actions?id=2', '/start']);
    stop();
    history.push('/reports');
    expect(heard).toHaveLength(3);
  });
});
