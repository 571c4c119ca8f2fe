import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useUrlState } from './use-url-state';

type Params = Record<string, string>;

/** A pane with one search box whose params are its URL; `history` records every write. */
function usePane(initialParams: Params, remembered: string, history: { params: Params; replace: boolean }[] = []) {
  const [params, setParamsState] = useState(initialParams);
  const [q, setQ] = useState(remembered);
  useUrlState(
    params,
    (next, opts) => {
      history.push({ params: next, replace: !!opts?.replace });
      setParamsState(next);
    },
    { q },
    (url) => setQ(url.q ?? ''),
  );
  return { params, q, setQ, navigate: setParamsState };
}

describe('useUrlState: filters and searches in the URL, one mechanism for every pane', () => {
  it('a deep link sets the state; the other params stay', () => {
    const { result } = renderHook(() => usePane({ vid: 'A1', q: 'dns' }, 'remembered'));
    expect(result.current.q).toBe('dns');
    expect(result.current.params).toEqual({ vid: 'A1', q: 'dns' });
  });

  it('a URL naming none of the keys takes the remembered state, without a new history entry', () => {
    const writes: { params: Params; replace: boolean }[] = [];
    const { result } = renderHook(() => usePane({ vid: 'A1' }, 'remembered', writes));
    expect(result.current.params).toEqual({ vid: 'A1', q: 'remembered' });
    expect(writes).toEqual([{ params: { vid: 'A1', q: 'remembered' }, replace: true }]);
  });

  it('a state change writes a new history entry; back (a URL the pane did not write) restores the state', () => {
    const writes: { params: Params; replace: boolean }[] = [];
    const { result } = renderHook(() => usePane({}, '', writes));
    expect(writes).toEqual([]);
    act(() => result.current.setQ('port scan'));
    expect(result.current.params).toEqual({ q: 'port scan' });
    expect(writes).toEqual([{ params: { q: 'port scan' }, replace: false }]);
    act(() => result.current.setQ('dns'));
    expect(result.current.params).toEqual({ q: 'dns' });
    // Back, then back again: the state follows the URL and nothing is written.
    act(() => result.current.navigate({ q: 'port scan' }));
    expect(result.current.q).toBe('port scan');
    act(() => result.current.navigate({}));
    expect(result.current.q).toBe('');
    act(() => result.current.navigate({ q: 'dns' }));
    expect(result.current.q).toBe('dns');
    expect(writes).toHaveLength(2);
  });

  it('issue 21.4 params that come back late (the router) never take the state back to a value it has moved on from', () => {
    // The URL the pane wrote arrives only when the test delivers it, as a router's does.
    const writes: Params[] = [];
    const { result } = renderHook(() => {
      const [params, setParams] = useState<Params>({});
      const [job, setJob] = useState('');
      useUrlState(params, (next) => void writes.push(next), { job }, (url) => setJob(url.job ?? ''), { replace: ['job'] });
      return { job, setJob, deliver: setParams };
    });
    act(() => result.current.setJob('320'));
    act(() => result.current.setJob('319'));
    expect(writes).toEqual([{ job: '320' }, { job: '319' }]);
    // The first write comes back after the state moved on: its echo, not a navigation.
    act(() => result.current.deliver({ job: '320' }));
    expect(result.current.job).toBe('319');
    act(() => result.current.deliver({ job: '319' }));
    expect(result.current.job).toBe('319');
    expect(writes).toHaveLength(2);
    // Settled: a later Back to the first value is a navigation again.
    act(() => result.current.deliver({ job: '320' }));
    expect(result.current.job).toBe('320');
    expect(writes).toHaveLength(2);
  });

  it('a key named in `replace` rewrites the current entry when it alone changes; with a filter change it is a new entry', () => {
    const writes: { params: Params; replace: boolean }[] = [];
    const { result } = renderHook(() => {
      const [params, setParams] = useState<Params>({});
      const [q, setQ] = useState('');
      const [row, setRow] = useState('');
      useUrlState(
        params,
        (next, opts) => {
          writes.push({ params: next, replace: !!opts?.replace });
          setParams(next);
        },
        { q, row },
        (url) => {
          setQ(url.q ?? '');
          setRow(url.row ?? '');
        },
        { replace: ['row'] },
      );
      return { params, setQ, setRow, navigate: setParams, q, row };
    });
    act(() => result.current.setRow('12'));
    act(() => result.current.setRow('13'));
    act(() => result.current.setQ('dns'));
    expect(writes).toEqual([
      { params: { row: '12' }, replace: true },
      { params: { row: '13' }, replace: true },
      { params: { row: '13', q: 'dns' }, replace: false },
    ]);
    // Back to the entry before the filter: the row it had comes back with it.
    act(() => result.current.navigate({ row: '13' }));
    expect([result.current.q, result.current.row]).toEqual(['', '13']);
    expect(writes).toHaveLength(3);
  });
});
