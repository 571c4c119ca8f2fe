import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const root = path.dirname(fileURLToPath(import.meta.url));

// The import rules see what TypeScript sees: .ts/.tsx files without extensions, folder index files and
// the '@/' alias from tsconfig.json. Without a resolver the zones and no-cycle silently match nothing.
const resolver = createNodeResolver({
  extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json', '.node'],
  conditionNames: ['types', 'import', 'require', 'default'],
  tsconfig: { configFile: path.join(root, 'tsconfig.json') },
});

// One zone per feature folder: a feature may import only from itself and the shared folders.
const features = fs.existsSync('src/features') ? fs.readdirSync('src/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
const featureZones = features.map((f) => ({ target: `./src/features/${f}`, from: './src/features', except: [`./${f}`] }));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'data/**', 'coverage/**', '.e2e-tmp/**', 'bench/out/**', 'tests/lint-fixtures/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [resolver],
      // Without these, import-x parses no .ts/.tsx dependency and no-cycle sees no edge at all.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // No import loops anywhere (src, server, actor, cli). Type-only imports count too: a loop is a loop.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Features never import each other: shared pieces live in src/api, src/ui, src/commands, src/panes.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones,
            { target: './src/api', from: './src/features' },
            { target: './src/ui', from: './src/features' },
            { target: './src/commands', from: './src/features' },
            { target: './src', from: './server' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [{ target: './server', from: './src', except: ['./api/contracts', './api/fakes'] }] }],
    },
  },
);
