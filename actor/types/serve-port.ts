/** The target side's one served port: bind it (or the port used instead) and describe it for the ready call and the evidence. */
import type { Bound } from '../net-util';
import type { TargetHandle } from './contract';

/**
 * `busyFallback`: a well-known port another service of the host already uses (a mail server on 25, a
 * resolver on 53) is served on a free port instead, with a note; the source learns it from port_map.
 */
export async function servePort(
  port: number,
  bind: (port: number) => Promise<Bound<unknown>>,
  seen: () => unknown,
  close: () => Promise<void>,
  busyFallback = false,
): Promise<TargetHandle> {
  const port_map: Record<string, number> = {};
  const port_failures: Record<string, string> = {};
  const notes: string[] = [];
  try {
    const b = await bind(port).catch(async (e: NodeJS.ErrnoException) => {
      if (!busyFallback || e.code !== 'EADDRINUSE') throw e;
      const other = await bind(0);
      return { ...other, note: `port ${port} is in use on this actor; served on ${other.port}` };
    });
    port_map[String(port)] = b.port;
    if (b.note) notes.push(b.note);
  } catch (e) {
    port_failures[String(port)] = (e as Error).message;
  }
  return { port_map, port_failures, evidence: () => ({ served: port_map, failures: port_failures, notes, received: seen() }), close };
}
