/**
 * captive_ioc_pcap: the byte-for-byte replay of a pcap action (pcap-replay.ts) with both sides on one
 * actor: the actor serves the server side of every kept conversation on its own address (a captive
 * server), then plays the client side against itself. The verdict is the client side's: a refused,
 * reset, timed-out or altered segment is blocked and named; nothing leaves the actor's address. A port
 * the captive server cannot serve (another program holds it) ends errored with the reason: the client
 * side would otherwise talk to that program.
 */
import type { WorkPayload } from '../../src/api/contracts/engine';
import type { Outcome, PerformOptions } from './contract';
import { pcapSource, startPcapTarget } from './pcap-replay';

export async function captivePcapSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const own = w.local_address;
  const server = await startPcapTarget(w, opts);
  try {
    const failed = Object.entries(server.port_failures);
    if (failed.length) {
      const why = failed.map(([port, reason]) => `port ${port} (${reason})`).join(', ');
      return { outcome: 'errored', blocked: null, message: `The captive server could not serve ${why} on ${own}.`, evidence: { captive_server: server.evidence() } };
    }
    const mapped = (port: number) => server.port_map[String(port)] ?? port;
    const outcome = await pcapSource({ ...w, port_map: server.port_map, port_failures: server.port_failures }, own, signal, mapped);
    return { ...outcome, evidence: { ...outcome.evidence, captive_server: server.evidence() } };
  } finally {
    await server.close();
  }
}
