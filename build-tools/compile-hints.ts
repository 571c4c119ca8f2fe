import type { Plugin } from 'vite';

/** V8's per-file explicit compile hint (Chrome 136+): compile every function of the file when the file is compiled. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts V8's explicit compile hint at the top of the named chunks. The workbench's chunk arrives while the
 * sign-in page waits for the user; without the hint V8 compiles each of its functions the first time
 * it runs, on the main thread, in the render that follows the sign-in answer (about 830 functions,
 * 150-250 ms under 4x CPU slowdown). With it they are compiled with the file, off the main thread while
 * the chunk streams in. Browsers that do not know the comment ignore it.
 *
 * The comment must be the file's first line, so it is added after Vite has put its preload helper
 * (`__vite__mapDeps`) there, and the source map's lines move down by one.
 */
export function compileHints(chunkNames: readonly string[]): Plugin {
  return {
    name: 'vigil-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunkNames.includes(chunk.name) || chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // The source map (already emitted as an asset by now): its lines move down by one.
          const map = bundle[`${chunk.fileName}.map`];
          if (map?.type === 'asset') {
            const json = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          }
        }
      },
    },
  };
}
