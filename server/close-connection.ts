import type { IncomingMessage } from 'node:http';

/**
 * Closes a request's connection (e.g. to stop a client sending the rest of a refused upload).
 * A request injected with fastify's inject() (tests, in-process calls) has a stand-in socket without
 * destroy(): there is no connection to close then, and calling it would throw outside any handler.
 */
export function closeConnection(req: Pick<IncomingMessage, 'socket'>): void {
  const socket = req.socket as { destroy?: unknown } | null | undefined;
  if (typeof socket?.destroy === 'function') req.socket.destroy();
}
