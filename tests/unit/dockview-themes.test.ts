import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { themeDark, themeLight } from 'dockview-core';
import { DOCKVIEW_THEMES, trimThemes } from '../../build-tools/dockview-themes';

describe("dockview's stylesheet without the themes the workbench does not use (issue 22.1: CSS trimmed)", () => {
  it('the kept themes are the ones src/panes/workbench.tsx gives dockview', () => {
    expect([...DOCKVIEW_THEMES].sort()).toEqual([themeDark.className, themeLight.className].sort());
  });

  it("drops other themes' selectors, keeps shared rules, the dark and light themes and the at-rules", () => {
    const css = [
      '/* a { } comment */',
      '.dv-tab { color: red; }',
      '.dockview-theme-dark, .dockview-theme-abyss { --x: 1; }',
      '.dockview-theme-light-spaced .dv-tab, .dockview-theme-nord .dv-tab { --y: 2; }',
      '.dockview-theme-light .dv-tab:not(.a, .b) { --z: 3; }',
      '@media (pointer: coarse) { .dockview-theme-vs .dv-sash { w: 1; } .dv-sash { w: 2; } }',
      '@media (hover: none) { .dockview-theme-dracula .dv-tab { w: 3; } }',
    ].join('\n');
    const out = trimThemes(css);
    expect(out).toContain('.dv-tab {');
    expect(out).toContain('.dockview-theme-dark {');
    expect(out).toContain('.dockview-theme-light .dv-tab:not(.a, .b) {');
    expect(out).toMatch(/@media \(pointer: coarse\) \{\.dv-sash \{ w: 2; \}/);
    for (const gone of ['abyss', 'light-spaced', 'nord', 'vs', 'dracula', 'hover: none', 'comment']) expect(out).not.toContain(gone);
  });

  it("dockview's real stylesheet keeps only the dark and light themes, at less than half its size", () => {
    const css = readFileSync(createRequire(import.meta.url).resolve('dockview/dist/styles/dockview.css'), 'utf8');
    const out = trimThemes(css);
    expect(new Set(out.match(/dockview-theme-[\w-]+/g))).toEqual(new Set(DOCKVIEW_THEMES));
    expect(out.length).toBeLessThan(css.length / 2);
    expect(out.split('{').length).toBe(out.split('}').length);
  });
});
