#!/usr/bin/env bash
# `npm run lint:code`: ESLint on the whole tree, through ESLint's cache (node_modules/.cache/eslint/,
# keyed by each file's content and the configuration), so an unchanged file is not linted again.
# import-x/no-cycle reads other files too: a new loop always passes through a changed file, which is
# linted again and reports it; but a loop removed by changing one of its files leaves the others'
# cached errors. So a failure through the cache is checked again without it, and only that verdict
# counts. A clean clone (CI) has no cache and lints every file.
set -u
cd "$(dirname "$0")/.."
cache=(--cache --cache-location node_modules/.cache/eslint/ --cache-strategy content)
if npx eslint . --max-warnings 0 "${cache[@]}" >/dev/null 2>&1; then
  exit 0
fi
echo "ESLint reported problems through its cache: linting every file again without it."
rm -rf node_modules/.cache/eslint/
exec npx eslint . --max-warnings 0 "${cache[@]}"
