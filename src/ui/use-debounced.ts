import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `ms` milliseconds (e.g. a search box's text). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
