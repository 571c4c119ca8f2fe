import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { configureHttp } from '@/api/http';

/** Component tests talk to MSW at this origin; the product never uses MSW. */
export const API = 'http://vigil.test';

export function useMswServer() {
  const server = setupServer();
  beforeAll(() => {
    configureHttp({ baseUrl: API });
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => {
    server.close();
    configureHttp({ baseUrl: '' });
  });
  return server;
}
