import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * One chunk for the workbench: every module the lazy `src/app/signed-in.tsx` needs statically and the
 * first download (the entry's static graph) does not have, whoever else imports it. Without it the
 * bundler splits out each module shared with a lazy pane (a store, a contract, a few helpers): about
 * 20 files of 0.1-3 KB, which the browser fetches six at a time (HTTP/1.1), one round trip per wave,
 * about 560 ms each under "Fast 3G", before the workbench can start. Panes that import such a module
 * import it from this chunk, which is loaded by then.
 *
 * The set is computed from the module graph once it is built (`buildEnd`), and the chunking step
 * (`codeSplitting` groups, which run after it) reads it. Dependencies are not pulled in with the
 * captured modules: the set is closed under static imports apart from the entry's own modules.
 */
export function workbenchChunk(root: string, workbenchEntry: string): { plugin: Plugin; test: (id: string) => boolean } {
  const captured = new Set<string>();
  const plugin: Plugin = {
    name: 'vigil-workbench-chunk',
    apply: 'build',
    buildEnd() {
      captured.clear();
      const reach = (starts: readonly string[]) => {
        const seen = new Set<string>();
        const stack = [...starts];
        while (stack.length) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) stack.push(next);
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const eager = reach(ids.filter((id) => this.getModuleInfo(id)?.isEntry));
      const target = path.resolve(root, workbenchEntry);
      for (const id of reach(ids.filter((id) => id === target))) if (!eager.has(id)) captured.add(id);
      if (!captured.has(target)) this.error(`workbench-chunk: ${workbenchEntry} is not in the module graph`);
    },
  };
  return { plugin, test: (id) => captured.has(id) };
}
