import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tailOf } from '../../server/lab/lab';

describe("a lab that did not come up names the end of its missing actors' logs", () => {
  it('the last lines of a log, an empty log, and a log that is not there', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-lab-logs-'));
    try {
      const log = path.join(dir, 'actor-server.log');
      fs.writeFileSync(log, `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
      expect(tailOf(log, 3)).toBe('line 18\nline 19\nline 20');
      fs.writeFileSync(log, '');
      expect(tailOf(log, 3)).toBe('(empty)');
      expect(tailOf(path.join(dir, 'none.log'), 3)).toMatch(/^\(not readable: ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
