import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 16: no production file over 400 lines without a reason written at its top (a `Size:` line in
 * its first 40 lines). Walks the tree with node:fs (no git), so it runs wherever the sources are.
 */
const ROOT = path.resolve(__dirname, '../..');
const DIRS = ['src', 'server', 'actor'];
const MAX_LINES = 400;
const HEAD_LINES = 40;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
/** A comment line starting with `Size:` (not an identifier such as `archiveSize:`). */
const REASON = /^\s*(\*|\/\/)\s*Size:/;

function productionFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(ROOT, full).split(path.sep).join('/');
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && rel !== 'src/api/fakes') productionFiles(full, out);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

describe('file sizes', () => {
  it('production files over 400 lines say why at their top', () => {
    const files = DIRS.flatMap((d) => productionFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const unexplained = files.filter((rel) => {
      const lines = fs.readFileSync(path.join(ROOT, rel), 'utf8').split('\n');
      if (lines.at(-1) === '') lines.pop();
      return lines.length > MAX_LINES && !lines.slice(0, HEAD_LINES).some((l) => REASON.test(l));
    });
    expect(unexplained, 'files over 400 lines without a "Size:" reason in their first 40 lines').toEqual([]);
  });
});
