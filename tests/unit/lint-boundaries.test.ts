// @vitest-environment node
/**
 * The boundaries eslint.config.js promises, proven on small sources linted with the project's own
 * config: features never import each other (relative or '@/' style), src never imports server, server
 * reaches src only through the contracts, and no import loop passes. Each forbidden case has an allowed
 * twin, so a rule that flags everything fails here too. Without the TypeScript-aware resolver the
 * extensionless imports resolve to nothing and every "fails" case below passes lint: the test fails.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The project's config; ignore: false lets it lint tests/lint-fixtures, which `eslint .` skips on purpose. */
let eslint: ESLint;
/** The same config without no-cycle, whose walk of a whole feature's or the server's import graph is slow. */
let zonesOnly: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root, ignore: false });
  zonesOnly = new ESLint({ cwd: root, ignore: false, overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } });
  // The first lint loads the config, the TypeScript parser and the plugins (seconds); do it here, once.
  await zonesOnly.lintText('export {};\n', { filePath: path.join(root, 'src/warm-up.ts') });
}, 60_000);

/** The rule ids lint reports for `code` as if it were the file `file` (relative to the repo). */
async function ruleIds(file: string, code: string, linter = zonesOnly): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('feature zones', () => {
  const file = 'src/features/scripts/lint-fixture.ts';

  it('a feature importing another feature relatively fails', async () => {
    expect(await ruleIds(file, "import * as jobs from '../jobs/api';\nexport const x = jobs;\n")).toContain('import-x/no-restricted-paths');
  });

  it("a feature importing another feature through '@/features/...' fails", async () => {
    expect(await ruleIds(file, "import * as jobs from '@/features/jobs/api';\nexport const x = jobs;\n")).toContain('import-x/no-restricted-paths');
  });

  it('a feature importing itself and the shared folders passes', async () => {
    const code = "import * as own from './api';\nimport * as same from '@/features/scripts/api';\nimport { Button } from '@/ui/button';\nexport const x = [own, same, Button];\n";
    expect(await ruleIds(file, code)).toEqual([]);
  });

  it('a shared folder importing a feature fails', async () => {
    expect(await ruleIds('src/ui/lint-fixture.ts', "import * as jobs from '@/features/jobs/api';\nexport const x = jobs;\n")).toContain('import-x/no-restricted-paths');
  });
});

describe('src and server', () => {
  it('src importing the server fails', async () => {
    expect(await ruleIds('src/api/lint-fixture.ts', "import { buildApp } from '../../server/app';\nexport const x = buildApp;\n")).toContain('import-x/no-restricted-paths');
  });

  it('the server importing src outside the contracts fails, the contracts pass', async () => {
    expect(await ruleIds('server/lint-fixture.ts', "import { Button } from '../src/ui/button';\nexport const x = Button;\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('server/lint-fixture.ts', "import { PERMISSIONS } from '../src/api/contracts/permissions';\nexport const x = PERMISSIONS;\n")).toEqual([]);
  });
});

describe('import loops', () => {
  it('a file in an import loop fails', async () => {
    const [result] = await eslint.lintFiles([path.join(root, 'tests/lint-fixtures/cycle-a.ts')]);
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('a file outside any loop passes', async () => {
    expect(await ruleIds('tests/lint-fixtures/no-cycle.ts', "import { cycleA } from './cycle-a';\nexport const x = cycleA;\n", eslint)).toEqual([]);
  });
});
