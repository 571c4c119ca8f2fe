import fs from 'node:fs';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

// One zone per feature folder: a feature may import only from itself and the shared folders.
const features = fs.existsSync('src/features') ? fs.readdirSync('src/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
const featureZones = features.map((f) => ({ target: `./src/features/${f}`, from: './src/features', except: [`./${f}`] }));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'data/**', 'coverage/**', '.e2e-tmp/**', 'bench/out/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-cycle': 'off',
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
