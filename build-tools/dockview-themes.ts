import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** The dockview themes the workbench uses (src/panes/workbench.tsx: themeDark and themeLight). */
export const DOCKVIEW_THEMES = ['dockview-theme-dark', 'dockview-theme-light'] as const;
const IMPORT = "@import 'dockview/dist/styles/dockview.css';";
const THEME_CLASS = /\.(dockview-theme-[\w-]+)/g;

/** The selectors of a rule's prelude, split at its top-level commas. */
function selectors(prelude: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < prelude.length; i++) {
    const c = prelude[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(prelude.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(prelude.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * dockview.css without the rules of the themes nobody uses: it ships fifteen (abyss, dracula, nord, the
 * "-spaced" variants…), 12.6 KB gzip of which the dark and light themes need about half. A selector that
 * names another theme's class is dropped, a rule with no selector left goes; at-rules keep their
 * trimmed content. Comments go (the minifier would drop them too).
 */
export function trimThemes(css: string, keep: readonly string[] = DOCKVIEW_THEMES): string {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) break;
    const prelude = text.slice(i, open).trim();
    let depth = 1;
    let j = open + 1;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}') depth--;
    }
    const body = text.slice(open + 1, j - 1);
    i = j;
    if (prelude.startsWith('@')) {
      const inner = body.includes('{') ? trimThemes(body, keep) : body;
      if (inner.trim()) out += `${prelude} {${inner}}\n`;
      continue;
    }
    const kept = selectors(prelude).filter((s) => [...s.matchAll(THEME_CLASS)].every((m) => keep.includes(m[1]!)));
    if (kept.length) out += `${kept.join(',\n')} {${body}}\n`;
  }
  return out;
}

/**
 * Inlines the trimmed dockview.css in place of src/styles.css's import of it, before Tailwind reads the
 * file (Tailwind resolves `@import` itself, so the imported file never passes through Vite's hooks).
 */
export function dockviewThemes(stylesheet: string): Plugin {
  const file = createRequire(import.meta.url).resolve('dockview/dist/styles/dockview.css');
  return {
    name: 'vigil-dockview-themes',
    enforce: 'pre',
    transform(code, id) {
      if (id.split('?')[0] !== stylesheet) return null;
      if (!code.includes(IMPORT)) this.error(`dockview-themes: ${stylesheet} no longer has ${IMPORT}`);
      this.addWatchFile(file);
      return { code: code.replace(IMPORT, trimThemes(readFileSync(file, 'utf8'))), map: null };
    },
  };
}
