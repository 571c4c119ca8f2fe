import * as webStreams from 'node:stream/web';

// The unit projects run in VM contexts (pool 'vmThreads', see vitest.config.ts); jsdom's global object
// there lacks Node's Web Streams, which MSW's interceptors need.
for (const name of ['ReadableStream', 'WritableStream', 'TransformStream'] as const) {
  if (!(name in globalThis)) Object.defineProperty(globalThis, name, { value: webStreams[name], configurable: true, writable: true });
}
