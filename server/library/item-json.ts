import type { LibraryItem } from '../../src/api/contracts/library';

/**
 * A library item as JSON text around its latest job (which moves on its own): `head + latestJob +
 * tail`. The library keeps one per index entry, so a page of 1,000 items is a join of kept strings
 * instead of 1,000 objects built and serialised per call (about 0.8 ms instead of 6 ms, and no garbage).
 */
export interface ItemJson {
  /** The library's tag generation it was written with (a renamed tag shows in new JSON). */
  gen: number;
  head: string;
  tail: string;
}

const MARK = '"latest_job":null';

/** The item's JSON split where its latest_job (null here) is. */
export function itemJson(item: LibraryItem & { latest_job: null }, gen: number): ItemJson {
  const json = JSON.stringify(item);
  // Only numbers and booleans follow latest_job, and a quote inside a string is escaped: the last match is the field.
  const at = json.lastIndexOf(MARK) + MARK.length - 'null'.length;
  return { gen, head: json.slice(0, at), tail: json.slice(at + 'null'.length) };
}

/** `{"<key>":<array JSON>, ...rest}`: an answer whose first field is a list already written as JSON. */
export function answerJson(key: string, arrayJson: string, rest: Record<string, unknown>): string {
  const tail = JSON.stringify(rest);
  return `{${JSON.stringify(key)}:${arrayJson}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}
