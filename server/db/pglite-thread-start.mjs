// The entry of PGlite's thread: worker threads do not inherit tsx's loader from the director (tsx
// issue 354), so this plain module registers it and then loads the TypeScript thread.
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-thread.ts', import.meta.url);
